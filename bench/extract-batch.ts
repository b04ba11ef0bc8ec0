/**
 * npm run bench:extract-batch [-- --rounds 7 --latency 75]
 *
 * Wall time of one POST /v1/extract of 20 pages against 20 sequential POST /v1/fetch calls of
 * the same pages, on one real Scout with its default fetch limits (8 fetches at once, 2 per
 * host name). The pages are served on loopback with realistic sizes (15-80 KB of HTML, an
 * article among navigation) and a served latency (default 75 ms before the first byte), so
 * parallel reading matters as it does on the web. Two layouts:
 * - 20 pages on 20 hosts (127.0.0.32-51, as the results of one search are): the goal, a batch
 *   at most 0.3x the sequential time;
 * - 20 pages of one host: for reference, where politeness (SCOUT_FETCH_PER_HOST, 2) bounds
 *   the batch to about half the sequential time whatever the code does.
 * Rounds alternate which goes first; the figure is the median of the per-round ratios. A third
 * column, 20 POST /v1/fetch sent at once, is the floor the machine allows a batch (the pages'
 * extraction shares its cores), to tell the batch's own cost from the machine's.
 *
 * Then the crawl (bench/crawl-pace.ts): one POST /v1/crawl of a 30-page site on one host
 * against the per-host pacing limit (SCOUT_MAP_DELAY_MS, default 250 ms, plus a page's own
 * service time), goal at least 90 % of it; --crawl-rounds (default 3), --delay to change D.
 */
import { createServer, type Server } from 'node:http';
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { defined } from '../test/helpers/defined.ts';
import { crawlPace, crawlSite, serveSite } from './crawl-pace.ts';
import { benchScout, median } from './load-kit.ts';
import { rng } from './make-corpus.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '7' },
    latency: { type: 'string', default: '75' },
    'crawl-rounds': { type: 'string', default: '3' },
    delay: { type: 'string', default: '250' },
  },
});
const ROUNDS = Number(values.rounds);
const LATENCY_MS = Number(values.latency);
const PAGES = 20;
const GOAL = 0.3;
// 127.0.0.32/27: twenty loopback hosts, 127.0.0.1 outside the allowlist as ever.
const HOSTS = Array.from({ length: PAGES }, (_, i) => `127.0.0.${32 + i}`);
const ALLOW = '127.0.0.32/27';
// The crawl's site, inside the same allowlist.
const CRAWL_HOST = '127.0.0.52';

const WORDS =
  'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were her she there one all we their can has more would if will what when out up about so no into time some could them other than then now only its over new also any after two first way well just most even people made may before back through where much should these good long being very own'.split(
    ' ',
  );

/** An HTML page of about `kb` KB: a navigation list, an article of paragraphs, a footer. */
function pageHtml(n: number, kb: number): string {
  const rand = rng(1000 + n);
  const sentence = () => {
    const k = 8 + Math.floor(rand() * 14);
    const w = Array.from({ length: k }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
    return `${w.charAt(0).toUpperCase()}${w.slice(1)}.`;
  };
  const nav = Array.from({ length: 40 }, (_, i) => `<li><a href="/section/${i}">Section ${i}</a></li>`).join('');
  const paragraphs: string[] = [];
  let size = 0;
  while (size < kb * 1024) {
    const p = `<p>${Array.from({ length: 4 + Math.floor(rand() * 4) }, sentence).join(' ')}</p>\n`;
    paragraphs.push(rand() < 0.1 ? `<h2>${sentence()}</h2>\n${p}` : p);
    size += p.length;
  }
  return `<!doctype html><html><head><title>Benchmark page ${n}</title></head><body><nav><ul>${nav}</ul></nav><main><article><h1>Benchmark page ${n}</h1>${paragraphs.join('')}</article></main><footer>© Example ${n}</footer></body></html>`;
}

function serve(host: string, pages: Map<string, Buffer>): Promise<Server> {
  const server = createServer((req, res) => {
    const body = pages.get(req.url ?? '');
    // The origin's think time before its first byte, as a real site's.
    setTimeout(() => {
      if (body === undefined) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
      res.end(body);
    }, LATENCY_MS);
  });
  return new Promise((resolve) => server.listen(0, host, () => resolve(server)));
}

interface Target {
  url: string;
  key: string;
}

async function post(t: Target, path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

/** One batch: ms, and the pages that did not come back ok. */
async function batch(t: Target, urls: string[]): Promise<{ ms: number; failed: number }> {
  const start = performance.now();
  const { status, json } = await post(t, '/v1/extract', { urls });
  const ms = performance.now() - start;
  if (status !== 200) return { ms, failed: urls.length };
  const results = (json as { results: { ok: boolean }[] }).results;
  return { ms, failed: results.filter((r) => !r.ok).length };
}

/** The same pages, one POST /v1/fetch after another. */
async function sequential(t: Target, urls: string[]): Promise<{ ms: number; failed: number }> {
  const start = performance.now();
  let failed = 0;
  for (const url of urls) if ((await post(t, '/v1/fetch', { url })).status !== 200) failed += 1;
  return { ms: performance.now() - start, failed };
}

/** The same pages, 20 POST /v1/fetch at once (a client doing the batching itself): the floor the machine allows. */
async function concurrent(t: Target, urls: string[]): Promise<{ ms: number; failed: number }> {
  const start = performance.now();
  const statuses = await Promise.all(urls.map(async (url) => (await post(t, '/v1/fetch', { url })).status));
  return { ms: performance.now() - start, failed: statuses.filter((s) => s !== 200).length };
}

async function measure(t: Target, name: string, urls: string[]): Promise<number> {
  const batchMs: number[] = [];
  const seqMs: number[] = [];
  const atOnceMs: number[] = [];
  const ratios: number[] = [];
  let failed = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const first = r % 2 === 0;
    const a = first ? await batch(t, urls) : undefined;
    const s = await sequential(t, urls);
    const b = a ?? (await batch(t, urls));
    const c = await concurrent(t, urls);
    batchMs.push(b.ms);
    seqMs.push(s.ms);
    atOnceMs.push(c.ms);
    ratios.push(b.ms / s.ms);
    failed += b.failed + s.failed + c.failed;
  }
  const ratio = median(ratios);
  console.log(
    `${name.padEnd(26)} ${median(batchMs).toFixed(0).padStart(10)} ms ${median(seqMs).toFixed(0).padStart(14)} ms ${ratio.toFixed(2).padStart(9)}x ${median(atOnceMs).toFixed(0).padStart(15)} ms ${String(failed).padStart(8)}`,
  );
  return ratio;
}

async function main(): Promise<void> {
  const sizes = Array.from({ length: PAGES }, (_, i) => 15 + Math.round((65 * ((i * 7) % PAGES)) / (PAGES - 1)));
  const bodies = sizes.map((kb, i) => Buffer.from(pageHtml(i, kb)));
  const oneHost = new Map(bodies.map((b, i) => [`/p/${i}`, b]));
  const servers = await Promise.all(
    HOSTS.map((host, i) => serve(host, new Map([[`/p/${i}`, defined(bodies[i], 'a page')]]))),
  );
  const single = await serve(defined(HOSTS[0], 'a host'), oneHost);
  const port = (s: Server) => (s.address() as { port: number }).port;
  const spread = HOSTS.map((host, i) => `http://${host}:${port(defined(servers[i], 'a server'))}/p/${i}`);
  const together = bodies.map((_, i) => `http://${HOSTS[0]}:${port(single)}/p/${i}`);
  const crawlServer = await serveSite(CRAWL_HOST, crawlSite(pageHtml), LATENCY_MS);
  const s = await benchScout(10, { SCOUT_FETCH_ALLOW_CIDRS: ALLOW, SCOUT_MAP_DELAY_MS: values.delay });
  const t = { url: s.url, key: s.key };
  try {
    // Warm-up (JIT, the extraction workers) on every page, both ways.
    await sequential(t, spread);
    await batch(t, spread);
    const kb = bodies.reduce((n, b) => n + b.length, 0) / 1024;
    console.log(
      `${PAGES} pages (${kb.toFixed(0)} KB of HTML, 15-80 KB each), ${LATENCY_MS} ms served latency, default fetch limits (concurrency ${s.config.fetchConcurrency}, ${s.config.fetchPerHost} per host); ${ROUNDS} alternating rounds, medians`,
    );
    console.log(
      `${'layout'.padEnd(26)} ${'1 /v1/extract'.padStart(13)} ${'20 × /v1/fetch'.padStart(17)} ${'ratio'.padStart(10)} ${'20 fetches at once'.padStart(18)} ${'failed'.padStart(8)}`,
    );
    const ratio = await measure(t, '20 hosts (search results)', spread);
    await measure(t, '1 host (reference)', together);
    console.log(
      `goal: 20-page /v1/extract <= ${GOAL}x 20 sequential /v1/fetch (20 hosts): ${ratio.toFixed(2)}x ${ratio <= GOAL ? 'met' : 'NOT met'}`,
    );
    await crawlPace(t, `http://${CRAWL_HOST}:${port(crawlServer)}`, {
      rounds: Number(values['crawl-rounds']),
      delayMs: s.config.mapDelayMs,
      latencyMs: LATENCY_MS,
    });
  } finally {
    await s.scout.close();
    rmSync(s.root, { recursive: true, force: true });
    for (const server of [...servers, single, crawlServer]) server.close();
  }
}

await main();
