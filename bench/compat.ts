/**
 * npm run bench:compat [-- --docs 10000 --seconds 3 --rounds 6 --connections 10]
 *
 * Each compatibility shape (docs/compat.md) beside POST /v1/search, on the same Scout, the
 * same local index and the same query sequence, in the same run: requests/s, p50 and p99 of
 * each, and each shape's requests/s as a share of /v1/search's. Goal (issue 26): every shape
 * keeps >= 90% of /v1/search's requests/s: a shape is a translation, not a second search.
 *
 * Every request asks for 10 results (each shape's own way), with the search cache off so each
 * one reaches the index. The routes alternate within each round, each round starting at the
 * next route, and a shape's share is the
 * median of its per-round shares against the /v1 run of the same round: this machine's speed
 * drifts within a minute, which back-to-back runs would read as a difference between routes.
 */
import type autocannon from 'autocannon';
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { defined } from '../test/helpers/defined.ts';
import { benchScout, load, median, printRuns, queries, requestSequence, type Run, summary } from './load-kit.ts';

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '6' },
    connections: { type: 'string', default: '10' },
  },
});
const DOCS = Number(values.docs);
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);
const GOAL = 0.9;

interface Shape {
  name: string;
  base: autocannon.Request;
  make: (query: string) => Pick<autocannon.Request, 'path' | 'body'>;
}

const json = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
const form = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' });
const q = encodeURIComponent;

/** The routes measured, /v1/search first (the baseline): each asks for 10 results its own way. */
const shapes = (key: string): Shape[] => [
  {
    name: 'POST /v1/search (baseline)',
    base: { method: 'POST', path: '/v1/search', headers: json(key) },
    make: (query) => ({ body: JSON.stringify({ query, max_results: 10 }) }),
  },
  {
    name: 'GET /v1/search',
    base: { method: 'GET', headers: { authorization: `Bearer ${key}` } },
    make: (query) => ({ path: `/v1/search?q=${q(query)}&max_results=10` }),
  },
  {
    // As OpenWebUI sends it (less its headers): page 1 is 10 results.
    name: 'SearXNG GET /search',
    base: { method: 'GET', headers: { authorization: `Bearer ${key}`, accept: 'text/html' } },
    make: (query) => ({ path: `/search?q=${q(query)}&format=json&pageno=1&language=en-US&safesearch=1` }),
  },
  {
    name: 'SearXNG POST /search (form)',
    base: { method: 'POST', path: '/search', headers: form(key) },
    make: (query) => ({ body: `q=${q(query)}&format=json&pageno=1` }),
  },
  {
    name: 'Tavily POST /search (JSON)',
    base: { method: 'POST', path: '/search', headers: json(key) },
    make: (query) => ({ body: JSON.stringify({ query, max_results: 10, search_depth: 'basic', topic: 'general' }) }),
  },
  {
    name: 'Firecrawl POST /v2/search',
    base: { method: 'POST', path: '/v2/search', headers: json(key) },
    make: (query) => ({ body: JSON.stringify({ query, limit: 10 }) }),
  },
];

async function main() {
  const t0 = performance.now();
  const { scout, key, url, root } = await benchScout(DOCS);
  console.log(`Scout with ${DOCS} documents, ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const qs = queries(2000);
  const routes = shapes(key).map((s) => ({ ...s, opts: { url, requests: requestSequence(qs, s.make, s.base) } }));

  // Every route answers 200 in the warm-up before anything is measured: a shape that
  // errors fast would otherwise look faster than /v1.
  for (const r of routes) {
    const run = await load('warm-up', r.opts, 2, CONNECTIONS);
    if (run.errors + run.non2xx > 0)
      throw new Error(`${r.name}: ${run.errors + run.non2xx} failed requests in warm-up`);
  }
  const runs: Run[][] = routes.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    const line: string[] = [];
    // Each round starts at the next route: whichever runs first after a pause runs slower.
    for (let k = 0; k < routes.length; k++) {
      const i = (round + k) % routes.length;
      const r = defined(routes[i], 'a route');
      const run = await load(r.name, r.opts, SECONDS, CONNECTIONS);
      defined(runs[i], 'runs of a route').push(run);
      line.push(`${r.name.split(' (')[0]} ${run.rps.toFixed(0)}`);
    }
    console.log(`round ${round + 1}: ${line.join(', ')} req/s`);
  }

  const baseline = defined(runs[0], 'the baseline runs');
  console.log(
    `\n${DOCS} documents, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s (medians)`,
  );
  printRuns('route', 34, runs.map(summary));
  console.log(`\nshare of POST /v1/search requests/s (median of the rounds' ratios; goal >= ${GOAL * 100}%)`);
  let failed = false;
  for (const [i, r] of routes.entries()) {
    if (i === 0) continue;
    const share = median(defined(runs[i], 'runs').map((x, k) => x.rps / defined(baseline[k], 'baseline round').rps));
    const verdict = share >= GOAL ? 'meets' : 'BELOW';
    console.log(`${r.name.padEnd(34)} ${(share * 100).toFixed(1).padStart(6)}%  ${verdict} the goal`);
    if (runs[i]?.some((x) => x.errors + x.non2xx > 0)) failed = true;
  }
  await scout.close();
  rmSync(root, { recursive: true, force: true });
  if (failed) process.exitCode = 1;
}

await main();
