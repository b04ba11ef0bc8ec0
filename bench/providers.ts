/**
 * npm run bench:providers [-- --seconds 5 --rounds 4 --connections 10 --delay 300]
 *
 * What Scout adds on top of an upstream search provider (issue 4). A mock Brave API
 * (own thread, own event loop) answers every request after a fixed --delay ms with the
 * recorded Brave fixture. Two clients hit it side by side in the same run, in alternating
 * phases so drift hits both alike:
 *   direct: GET the mock exactly as Scout's Brave adapter does;
 *   scout:  POST /v1/search through the full HTTP API of a Scout configured with
 *           SCOUT_SEARCH_PROVIDERS=brave and SCOUT_BRAVE_URL pointing at the mock
 *           (auth, rate limit, budget, failover, filters, dedupe, response shaping).
 * A third path, the SearchBackend alone (registry + adapter, no HTTP API), shows which
 * part of the added time is the upstream side. Every request asks a different query and
 * the result cache is off, so each request is one upstream call. Prints p50/p99 of each
 * and the differences to direct.
 * Goal: at most 2 ms p50 and 5 ms p99 added.
 *
 * Then the keyless default (keyless-providers.ts): what fusion of DuckDuckGo, Mojeek,
 * Wikipedia and the local index adds over the slowest engine alone (goal <= 3 ms p50), and
 * the searches per second DuckDuckGo's default pacing allows. --keyless-only skips Brave.
 */
import { readFileSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { createProviders, searchBackendOptions } from '../src/providers/create-providers.ts';
import { createSearchBackend } from '../src/providers/registry.ts';
import { benchScout } from './load-kit.ts';
import { benchKeyless } from './keyless-providers.ts';
import { defined } from '../test/helpers/defined.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '4' },
    connections: { type: 'string', default: '10' },
    delay: { type: 'string', default: '300' },
    'keyless-only': { type: 'boolean', default: false },
    slowest: { type: 'string', default: '300' },
    callers: { type: 'string', default: '8' },
    'paced-seconds': { type: 'string', default: '10' },
    docs: { type: 'string', default: '2000' },
  },
});
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);
const DELAY_MS = Number(values.delay);
const BRAVE_KEY = 'bench-brave-key';

/** The mock upstream, in plain JS so the worker needs no TypeScript loader. */
const MOCK_SOURCE = `
const { createServer } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const body = Buffer.from(workerData.body);
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => setTimeout(() => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  }, workerData.delayMs));
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

function startMock(): Promise<{ url: string; stop: () => Promise<number> }> {
  const body = readFileSync(new URL('../test/fixtures/providers/brave/search.json', import.meta.url), 'utf8');
  const worker = new Worker(MOCK_SOURCE, { eval: true, workerData: { body, delayMs: DELAY_MS } });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (port: number) =>
      resolve({ url: `http://127.0.0.1:${port}/res/v1/web/search`, stop: () => worker.terminate() }),
    );
  });
}

type Call = (i: number) => Promise<number>;

/**
 * CONNECTIONS closed-loop clients for SECONDS; returns each request's latency in ms. The
 * clients start spread over one upstream delay, as independent agents would arrive: started
 * together they would stay in lock-step and every answer would queue behind the others.
 */
async function phase(call: Call, counter: { i: number }, failures: { n: number }): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, k) => {
      await new Promise((r) => setTimeout(r, (k * DELAY_MS) / CONNECTIONS));
      while (performance.now() < until) {
        const t0 = performance.now();
        const status = await call(counter.i++);
        latencies.push(performance.now() - t0);
        if (status !== 200) failures.n += 1;
      }
    }),
  );
  return latencies;
}

const pct = (sorted: number[], p: number): number =>
  defined(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)], `the p${p} latency`);

async function brave(): Promise<boolean> {
  const mock = await startMock();
  const {
    scout,
    key: apiKey,
    url,
    root,
    config,
  } = await benchScout(0, {
    SCOUT_SEARCH_PROVIDERS: 'brave',
    SCOUT_BRAVE_URL: mock.url,
    SCOUT_BRAVE_API_KEY: BRAVE_KEY,
  });
  const scoutUrl = `${url}/v1/search`;

  // Both clients: same undici, keep-alive, one connection per worker.
  const client = new Agent({ connections: CONNECTIONS * 2, keepAliveTimeout: 60_000 });
  const direct: Call = async (i) => {
    const u = new URL(mock.url);
    u.searchParams.set('q', `bench query ${i}`);
    u.searchParams.set('count', '10');
    const res = await request(u, {
      headers: { 'x-subscription-token': BRAVE_KEY, accept: 'application/json' },
      dispatcher: client,
    });
    JSON.parse(await res.body.text());
    return res.statusCode;
  };
  const viaScout: Call = async (i) => {
    const res = await request(scoutUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `bench query ${i}`, max_results: 10 }),
      dispatcher: client,
    });
    JSON.parse(await res.body.text());
    return res.statusCode;
  };

  // The upstream side alone (registry + Brave adapter, no HTTP API), to tell the two apart.
  const backend = createSearchBackend(
    createProviders(config, {}, { dispatcher: new Agent({ keepAliveTimeout: 60_000 }) }),
    searchBackendOptions(config),
  );
  const viaBackend: Call = async (i) => {
    const answer = await backend.search({
      query: `bench query ${i}`,
      maxResults: 10,
      includeDomains: [],
      excludeDomains: [],
      depth: 'basic',
    });
    return answer.results.length > 0 ? 200 : 500;
  };

  const counter = { i: 0 };
  const failures = { direct: { n: 0 }, backend: { n: 0 }, scout: { n: 0 } };
  // Warm-up: connections, JIT, SQLite statements.
  for (let w = 0; w < 3; w++)
    await Promise.all(
      Array.from({ length: CONNECTIONS }, (_, k) => Promise.all([direct(-k), viaScout(-k), viaBackend(-k)])),
    );
  const samples = { direct: [] as number[], backend: [] as number[], scout: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    samples.direct.push(...(await phase(direct, counter, failures.direct)));
    samples.backend.push(...(await phase(viaBackend, counter, failures.backend)));
    samples.scout.push(...(await phase(viaScout, counter, failures.scout)));
  }

  const d = samples.direct.sort((a, b) => a - b);
  const b = samples.backend.sort((x, y) => x - y);
  const s = samples.scout.sort((x, y) => x - y);
  const row = (name: string, xs: number[], errors: number) =>
    console.log(
      name.padEnd(40),
      String(xs.length).padStart(8),
      pct(xs, 50).toFixed(2).padStart(9),
      pct(xs, 99).toFixed(2).padStart(9),
      String(errors).padStart(7),
    );
  console.log(
    `\nmock upstream answers after ${DELAY_MS} ms; ${CONNECTIONS} connections; ${ROUNDS} alternating rounds of ${SECONDS} s per side`,
  );
  console.log(
    'path'.padEnd(40),
    'requests'.padStart(8),
    'p50 ms'.padStart(9),
    'p99 ms'.padStart(9),
    'errors'.padStart(7),
  );
  row('direct: GET mock Brave API', d, failures.direct.n);
  row('backend: SearchBackend.search (brave)', b, failures.backend.n);
  row('scout: POST /v1/search (brave → mock)', s, failures.scout.n);
  const added = (xs: number[], p: number) => (pct(xs, p) - pct(d, p)).toFixed(2);
  console.log(`\nadded by the upstream side alone: p50 ${added(b, 50)} ms, p99 ${added(b, 99)} ms`);
  console.log(
    `added by Scout end to end:       p50 ${added(s, 50)} ms (goal <= 2), p99 ${added(s, 99)} ms (goal <= 5)`,
  );

  await client.close();
  await scout.close();
  await mock.stop();
  rmSync(root, { recursive: true, force: true });
  return failures.direct.n + failures.backend.n + failures.scout.n === 0;
}

async function keyless(): Promise<boolean> {
  const { scout, root } = await benchScout(Number(values.docs));
  try {
    return await benchKeyless(scout.index, {
      slowestMs: Number(values.slowest),
      seconds: SECONDS,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      callers: Number(values.callers),
      pacedSeconds: Number(values['paced-seconds']),
    });
  } finally {
    await scout.close();
    rmSync(root, { recursive: true, force: true });
  }
}

async function main() {
  const ok = (values['keyless-only'] ? true : await brave()) && (await keyless());
  if (!ok) process.exitCode = 1;
}

await main();
