/**
 * The keyless default of bench:providers (issue 25): DuckDuckGo's and Mojeek's result pages
 * and Wikipedia's API, recorded (test/fixtures/providers), served by loopback fakes in their
 * own thread after fixed delays (DuckDuckGo, the slowest, --slowest ms; Mojeek 50 ms less;
 * Wikipedia half), and a local index of --docs documents.
 *
 * 1. What fusion adds: the search backend with the default list in fusion (four providers,
 *    three pages parsed, RRF, de-duplication) beside the same backend with the slowest engine
 *    alone, in alternating rounds; pacing lifted so that only the work is measured, the result
 *    cache off. Goal: fusion adds at most 3 ms p50 over the slowest engine alone.
 * 2. What pacing allows: DuckDuckGo at its default pacing (SCOUT_DUCKDUCKGO_RATE, _IN_FLIGHT)
 *    under --callers parallel callers for --paced-seconds: searches answered per second beside
 *    the configured rate, and how many callers were turned away at once (their turn would have
 *    come after their time limit) rather than left waiting.
 */
import { Worker } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { Agent } from 'undici';
import type { ScoutConfig } from '../src/scout-settings.ts';
import { loadScoutConfig } from '../src/scout-settings.ts';
import { createProviders, searchBackendOptions } from '../src/providers/create-providers.ts';
import { createLocalProvider } from '../src/providers/local.ts';
import { createSearchBackend, type ManagedSearchBackend } from '../src/providers/registry.ts';
import type { LocalIndexApi } from '../src/index/local-index-api.ts';
import type { SearchQuery } from '../src/search/search-types.ts';
import { defined } from '../test/helpers/defined.ts';

export interface KeylessOptions {
  slowestMs: number;
  seconds: number;
  rounds: number;
  connections: number;
  callers: number;
  pacedSeconds: number;
}

const FAKES_SOURCE = `
const { createServer } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const routes = workerData.routes;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const path = new URL(req.url, 'http://x').pathname;
    const route = routes[path];
    if (!route) { res.writeHead(404); res.end(); return; }
    setTimeout(() => {
      const body = Buffer.from(route.body);
      res.writeHead(200, { 'content-type': route.type, 'content-length': body.length });
      res.end(body);
    }, route.delayMs);
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

const fixture = (engine: string, file: string): string =>
  readFileSync(new URL(`../test/fixtures/providers/${engine}/${file}`, import.meta.url), 'utf8');

async function startFakes(slowestMs: number): Promise<{ base: string; stop: () => Promise<number> }> {
  const routes = {
    '/html/': { body: fixture('duckduckgo', 'search.html'), type: 'text/html', delayMs: slowestMs },
    '/search': { body: fixture('mojeek', 'search.html'), type: 'text/html', delayMs: Math.max(0, slowestMs - 50) },
    '/w/api.php': {
      body: fixture('wikipedia', 'search.json'),
      type: 'application/json',
      delayMs: Math.round(slowestMs / 2),
    },
  };
  const worker = new Worker(FAKES_SOURCE, { eval: true, workerData: { routes } });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (port: number) =>
      resolve({ base: `http://127.0.0.1:${port}`, stop: () => worker.terminate() }),
    );
  });
}

const query = (i: number): SearchQuery => ({
  query: `keyless bench ${i}`,
  maxResults: 10,
  includeDomains: [],
  excludeDomains: [],
  depth: 'basic',
});

const pct = (sorted: readonly number[], p: number): number =>
  defined(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)], `the p${p}`);

function backendFor(config: ScoutConfig, index: LocalIndexApi, dispatcher: Agent): ManagedSearchBackend {
  return createSearchBackend(
    createProviders(config, { local: createLocalProvider(index) }, { dispatcher }),
    searchBackendOptions(config),
  );
}

/** `connections` closed-loop callers for `seconds`; each search's latency in ms. */
async function phase(
  backend: ManagedSearchBackend,
  o: KeylessOptions,
  counter: { i: number },
  failures: { n: number },
): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + o.seconds * 1000;
  await Promise.all(
    Array.from({ length: o.connections }, async (_, k) => {
      // Spread over one delay, as independent agents arrive (see providers.ts).
      await new Promise((r) => setTimeout(r, (k * o.slowestMs) / o.connections));
      while (performance.now() < until) {
        const t0 = performance.now();
        const answer = await backend.search(query(counter.i++)).catch(() => undefined);
        latencies.push(performance.now() - t0);
        if (!answer || answer.results.length === 0) failures.n += 1;
      }
    }),
  );
  return latencies;
}

export async function benchKeyless(index: LocalIndexApi, o: KeylessOptions): Promise<boolean> {
  const fakes = await startFakes(o.slowestMs);
  const dispatcher = new Agent({ keepAliveTimeout: 60_000, connections: 64 });
  const urls = {
    SCOUT_DUCKDUCKGO_URL: `${fakes.base}/html/`,
    SCOUT_MOJEEK_URL: `${fakes.base}/search`,
    SCOUT_WIKIPEDIA_URL: `${fakes.base}/w/api.php`,
  };
  // Pacing lifted for part 1: it measures the work, not the engines' politeness.
  const unpaced = {
    SCOUT_DUCKDUCKGO_RATE: '100',
    SCOUT_DUCKDUCKGO_IN_FLIGHT: '64',
    SCOUT_MOJEEK_RATE: '100',
    SCOUT_MOJEEK_IN_FLIGHT: '64',
    SCOUT_WIKIPEDIA_RATE: '100',
    SCOUT_WIKIPEDIA_IN_FLIGHT: '64',
    SCOUT_SEARCH_CACHE_TTL: '0',
  };
  const fused = backendFor(loadScoutConfig({ ...urls, ...unpaced }), index, dispatcher);
  const slowest = backendFor(
    loadScoutConfig({ ...urls, ...unpaced, SCOUT_SEARCH_PROVIDERS: 'duckduckgo' }),
    index,
    dispatcher,
  );
  if (fused.status().length !== 4) throw new Error('the default list is not four providers');

  const counter = { i: 0 };
  const failures = { fused: { n: 0 }, slowest: { n: 0 } };
  for (let w = 0; w < 3; w++)
    await Promise.all(
      Array.from({ length: o.connections }, (_, k) =>
        Promise.all([fused.search(query(-1 - k - w * 100)), slowest.search(query(-1000 - k - w * 100))]),
      ),
    );
  const samples = { fused: [] as number[], slowest: [] as number[] };
  for (let r = 0; r < o.rounds; r++) {
    samples.slowest.push(...(await phase(slowest, o, counter, failures.slowest)));
    samples.fused.push(...(await phase(fused, o, counter, failures.fused)));
  }
  const f = samples.fused.sort((a, b) => a - b);
  const s = samples.slowest.sort((a, b) => a - b);
  console.log(
    `\nkeyless default (fakes answer after: duckduckgo ${o.slowestMs} ms, mojeek ${Math.max(0, o.slowestMs - 50)} ms, wikipedia ${Math.round(o.slowestMs / 2)} ms; local index of ${index.rankerStatus().documents} documents); ${o.connections} callers; ${o.rounds} alternating rounds of ${o.seconds} s`,
  );
  console.log(
    'path'.padEnd(52),
    'searches'.padStart(8),
    'p50 ms'.padStart(9),
    'p99 ms'.padStart(9),
    'failed'.padStart(7),
  );
  const row = (name: string, xs: number[], n: number) =>
    console.log(
      name.padEnd(52),
      String(xs.length).padStart(8),
      pct(xs, 50).toFixed(2).padStart(9),
      pct(xs, 99).toFixed(2).padStart(9),
      String(n).padStart(7),
    );
  row('slowest engine alone (duckduckgo)', s, failures.slowest.n);
  row('default fusion (duckduckgo, mojeek, wikipedia, local)', f, failures.fused.n);
  const added50 = pct(f, 50) - pct(s, 50);
  console.log(
    `fusion adds over the slowest engine: p50 ${added50.toFixed(2)} ms (goal <= 3), p99 ${(pct(f, 99) - pct(s, 99)).toFixed(2)} ms; ratio p50 ${(pct(f, 50) / pct(s, 50)).toFixed(3)}`,
  );

  // 2. DuckDuckGo at its default pacing, many callers.
  const pacedConfig = loadScoutConfig({ ...urls, SCOUT_SEARCH_PROVIDERS: 'duckduckgo', SCOUT_SEARCH_CACHE_TTL: '0' });
  const paced = backendFor(pacedConfig, index, dispatcher);
  let answered = 0;
  let turnedAway = 0;
  const waits: number[] = [];
  const done: number[] = [];
  const until = performance.now() + o.pacedSeconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: o.callers }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const ok = await paced.search(query(counter.i++)).then(
          () => true,
          () => false,
        );
        if (ok) {
          answered += 1;
          done.push(performance.now());
          waits.push(performance.now() - t0);
        } else {
          turnedAway += 1;
          // A caller turned away tries again a little later, as an agent would.
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const rate = pacedConfig.duckduckgoRate;
  // Answers per second between the first and the last (N answers span N - 1 intervals).
  done.sort((a, b) => a - b);
  const span = (defined(done.at(-1), 'the last answer') - defined(done[0], 'the first answer')) / 1000;
  const perSecond = done.length > 1 ? (done.length - 1) / span : 0;
  waits.sort((a, b) => a - b);
  console.log(
    `\npaced: duckduckgo at its defaults (${rate}/s, ${pacedConfig.duckduckgoInFlight} in flight), ${o.callers} callers for ${elapsed.toFixed(1)} s: ${answered} answered (${perSecond.toFixed(2)}/s, ${(perSecond / rate).toFixed(2)} of the configured rate), ${turnedAway} turned away at once; answered searches waited p50 ${waits.length ? pct(waits, 50).toFixed(0) : '-'} ms, p99 ${waits.length ? pct(waits, 99).toFixed(0) : '-'} ms`,
  );
  await dispatcher.close();
  await fakes.stop();
  return failures.fused.n + failures.slowest.n === 0 && perSecond <= rate * 1.05;
}
