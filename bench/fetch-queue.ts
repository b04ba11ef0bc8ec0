/**
 * The fetch line under two loads (issue 23), on a real Scout in this process at the default
 * capacity settings (only the rate limit is lifted, so every refusal is the fetch capacity's,
 * and 127.0.0.2/31 is opened for the loopback origins):
 *   npm run bench:fetch-queue
 * - burst: 20 concurrent POST /v1/fetch from one key of one small page (answered at once);
 *   prints how many were 503.
 * - fairness: two keys each send 2 fetches a second for 10 s of a page its origin answers
 *   after 3 s (127.0.0.2); meanwhile a third key sends 1 fetch a second, 9 in all, of a small
 *   page on another host (127.0.0.3); prints each key's statuses, the third key's 503 count
 *   first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createScout } from '../src/compose.ts';
import { loadScoutConfig } from '../src/scout-settings.ts';

const PAGE =
  '<!doctype html><html><head><title>Small page</title></head><body><main><h1>Small page</h1><p>A short article the fetch benchmark reads, long enough to be kept as the main content of the page by the extractor.</p></main></body></html>';

async function origin(host: string): Promise<{ server: Server; url: (path: string) => string }> {
  const server = createServer((req, res) => {
    const send = () => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    if ((req.url ?? '').startsWith('/slow')) setTimeout(send, 3000);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, url: (path) => `http://${host}:${port}${path}` };
}

const a = await origin('127.0.0.2');
const b = await origin('127.0.0.3');
const dataDir = mkdtempSync(join(tmpdir(), 'scout-bench-queue-'));
const scout = await createScout(
  loadScoutConfig({
    SCOUT_LOG_LEVEL: 'silent',
    SCOUT_STARTER_CORPUS: 'false',
    SCOUT_RATE_LIMIT_RPM: '1000000',
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/31',
    SCOUT_DATA_DIR: dataDir,
  }),
  { docsDir: new URL('../docs', import.meta.url).pathname },
);
await scout.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(scout.app.server.address() as AddressInfo).port}`;
const createKey = async (name: string): Promise<string> => (await scout.keys.create(name)).key;
const keys = await Promise.all([createKey('busy-1'), createKey('busy-2'), createKey('third')]);

const fetchPage = async (key: string, url: string): Promise<number> => {
  const res = await fetch(`${base}/v1/fetch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  });
  await res.arrayBuffer();
  return res.status;
};

const tally = (statuses: number[]): string => {
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts]
    .sort(([x], [y]) => x - y)
    .map(([s, n]) => `${n} x ${s}`)
    .join(', ');
};

try {
  const burst = await Promise.all(Array.from({ length: 20 }, () => fetchPage(keys[0], a.url('/small'))));
  console.log(
    `burst: 20 concurrent fetches from one key: ${burst.filter((s) => s === 503).length} x 503 (${tally(burst)})`,
  );

  // Paced sends (bounded in count: 20 per busy key, 9 for the third), answers awaited at the end.
  const paced = async (key: string, url: string, count: number, everyMs: number): Promise<number[]> => {
    const answers: Promise<number>[] = [];
    for (let i = 0; i < count; i += 1) {
      answers.push(fetchPage(key, url));
      await sleep(everyMs);
    }
    return Promise.all(answers);
  };
  const [busy1, busy2, third] = await Promise.all([
    paced(keys[0], a.url('/slow'), 20, 500),
    paced(keys[1], a.url('/slow'), 20, 500),
    (async () => {
      await sleep(1000); // the busy keys have filled the slots by then
      return paced(keys[2], b.url('/small'), 9, 1000);
    })(),
  ]);
  console.log(`fairness: third key: ${third.filter((s) => s === 503).length} of 9 x 503 (${tally(third)})`);
  console.log(`          busy key 1: ${tally(busy1)}; busy key 2: ${tally(busy2)}`);
} finally {
  await scout.close();
  a.server.close();
  b.server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
