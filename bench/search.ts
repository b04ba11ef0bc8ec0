/**
 * npm run bench [-- --docs 10000 --seconds 3 --rounds 10 --connections 10]
 *
 * POST /v1/search on the local index (a synthetic corpus of --docs documents) beside a bare
 * Fastify hello-world route, measured the same way in the same run; prints requests/s,
 * p50 and p99 of each and their ratio. Goal (issue 2): search keeps >= 40% of hello-world's
 * requests/s on a 10k-document index. Caches are off so every search hits the index, and
 * each request asks the next of 2000 distinct queries (one sequence over all connections).
 *
 * The two alternate, --rounds times --seconds each, and the ratio reported is the median of
 * the rounds' ratios: this machine's speed drifts by tens of percent within a minute, which
 * two back-to-back runs would read as a difference between the routes. The load generator
 * runs in this process (both routes pay for it alike).
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/load-config.ts';
import { createScout, type Scout } from '../src/compose.ts';
import { SearchResponse } from '../src/schemas/search.ts';
import { corpusLines, rng } from './make-corpus.ts';

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    queries: { type: 'string', default: '2000' },
    'empty-queries': { type: 'boolean', default: false },
  },
});
const DOCS = Number(values.docs);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const ROUNDS = Number(values.rounds);

export interface Run {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(name: string, opts: autocannon.Options, seconds = SECONDS): Promise<Run> {
  const r = await autocannon({ ...opts, duration: seconds, connections: CONNECTIONS });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

/** Queries made of corpus words (2-4 terms), so most match something. */
function queries(n: number): string[] {
  const words = [...corpusLines({ docs: 200, seed: 7 })].flatMap((l) => (JSON.parse(l).title as string).toLowerCase().split(' '));
  const rand = rng(99);
  return Array.from({ length: n }, () => {
    const k = 2 + Math.floor(rand() * 3);
    return Array.from({ length: k }, () => words[Math.floor(rand() * words.length)]).join(' ');
  });
}

/** A real answer of 10 results (the first query that has 10), served as is by the reference route. */
async function fixedAnswer(scout: Scout, qs: string[]): Promise<SearchResponse> {
  for (const query of qs) {
    const { body } = await scout.search.run({ query, max_results: 10 }, { requestId: 'reference', startedAt: performance.now() });
    if (body.results.length === 10) return body;
  }
  throw new Error('no query of the corpus has 10 results');
}

async function main() {
  const root = mkdtempSync(join(tmpdir(), 'scout-bench-'));
  const sink = new Writable({ write: (_c, _e, cb) => cb() }); // logs are produced, then dropped
  const config = loadConfig({
    SCOUT_DATA_DIR: join(root, 'data'),
    SCOUT_STARTER_CORPUS: 'false',
    SCOUT_RATE_LIMIT_RPM: '1000000',
    SCOUT_MONTHLY_SEARCH_BUDGET: '1000000000',
    SCOUT_SEARCH_CACHE_TTL: '0',
  });
  const scout = await createScout(config, { docsDir: join(root, 'none'), logStream: sink });
  const docs = [...corpusLines({ docs: DOCS, seed: 42 })].map((l) => JSON.parse(l));
  for (let i = 0; i < docs.length; i += 1000) scout.index.upsert(docs.slice(i, i + 1000));
  // A server builds its in-memory ranker in the background after start; here, before measuring.
  const t0 = performance.now();
  if (!scout.index.syncRanker()) throw new Error('the in-memory ranker did not build');
  console.log(`in-memory ranker built over ${DOCS} documents in ${(performance.now() - t0).toFixed(0)} ms`);
  const key = (await scout.keys.create('bench')).key;
  await scout.app.listen({ port: 0, host: '127.0.0.1' });

  // A reference beside the goal's baseline: the same bare Fastify answering a POST of the
  // same body with a fixed search response of 10 results (same schema serializer), doing no
  // other work. The distance from hello-world to it is what the request and response
  // sizes cost alone, before any of Scout's work.
  const sample = await fixedAnswer(scout, queries(200));
  const hello = Fastify();
  hello.get('/', async () => ({ hello: 'world' }));
  hello.post('/fixed', { schema: { response: { 200: SearchResponse } } }, async () => sample);
  await hello.listen({ port: 0, host: '127.0.0.1' });

  const port = (s: { server: { address(): unknown } }) => (s.server.address() as { port: number }).port;
  const qs = values['empty-queries'] ? Array.from({ length: 2000 }, (_, i) => `zzqx${i}`) : queries(Number(values.queries));
  // One global sequence: autocannon walks a `requests` array separately on each connection,
  // so 10 connections would send every query 10 times in a row and any cache would answer 9
  // of them. setupRequest hands each request the next query of the run instead.
  let next = 0;
  const distinct = (path: string) => [
    {
      method: 'POST' as const,
      path,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      setupRequest: (req: autocannon.Request) => ({ ...req, body: JSON.stringify({ query: qs[next++ % qs.length], max_results: 10 }) }),
    },
  ];
  const helloOpts = { url: `http://127.0.0.1:${port(hello)}/` };
  const fixedOpts = { url: `http://127.0.0.1:${port(hello)}`, requests: distinct('/fixed') };
  const searchOpts = { url: `http://127.0.0.1:${port(scout.app)}`, requests: distinct('/v1/search') };
  const bases: Run[] = [];
  const fixeds: Run[] = [];
  const searches: Run[] = [];
  // One warm-up of each so JIT and caches settle; then the measured rounds, alternating.
  for (const o of [helloOpts, fixedOpts, searchOpts]) await load('warm-up', o, 2);
  const pct = (a: Run, b: Run): string => `${((100 * a.rps) / b.rps).toFixed(1)}%`;
  for (let r = 0; r < ROUNDS; r++) {
    bases.push(await load('hello-world (bare Fastify)', helloOpts));
    fixeds.push(await load('  reference: bare POST, fixed 10-result body', fixedOpts));
    searches.push(await load(`POST /v1/search (local index, ${DOCS} docs)`, searchOpts));
    console.log(
      `round ${r + 1}: hello ${bases[r].rps.toFixed(0)} req/s, reference ${fixeds[r].rps.toFixed(0)} (${pct(fixeds[r], bases[r])}), search ${searches[r].rps.toFixed(0)} (${pct(searches[r], bases[r])})`,
    );
  }
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const summary = (runs: Run[]): Run => ({
    name: runs[0].name,
    rps: median(runs.map((x) => x.rps)),
    p50: median(runs.map((x) => x.p50)),
    p99: median(runs.map((x) => x.p99)),
    errors: runs.reduce((n, x) => n + x.errors, 0),
    non2xx: runs.reduce((n, x) => n + x.non2xx, 0),
  });
  const base = summary(bases);
  const fixed = summary(fixeds);
  const search = summary(searches);

  console.log(`\n${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s, same process, same run (medians)`);
  console.log('route'.padEnd(44), 'req/s'.padStart(9), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'errors'.padStart(7));
  for (const r of [base, fixed, search]) {
    console.log(r.name.padEnd(44), r.rps.toFixed(0).padStart(9), String(r.p50).padStart(8), String(r.p99).padStart(8), String(r.errors + r.non2xx).padStart(7));
  }
  const ratio = median(searches.map((x, i) => x.rps / bases[i].rps));
  const reference = median(fixeds.map((x, i) => x.rps / bases[i].rps));
  console.log(`\nreference / hello-world requests/s: ${(reference * 100).toFixed(1)}% (payload sizes alone)`);
  console.log(`search / hello-world requests/s: ${(ratio * 100).toFixed(1)}% (median of the rounds' ratios; goal >= 40%)`);

  await hello.close();
  await scout.close();
  rmSync(root, { recursive: true, force: true });
  if (search.errors + search.non2xx > 0) process.exitCode = 1;
}

await main();
