/**
 * npm run bench [-- --docs 10000 --seconds 3 --rounds 10 --connections 10]
 *
 * POST /v1/search on the local index (a synthetic corpus of --docs documents) beside a bare
 * Fastify hello-world route, measured the same way in the same run; prints requests/s,
 * p50 and p99 of each and their ratio. Goals: search keeps >= 40% of hello-world's
 * requests/s on a 10k-document index (issue 2), and >= 60% of the reference route's, a bare
 * POST answering the same 10-result payload (issue 28). Caches are off so every search hits the index, and
 * each request asks the next of 2000 distinct queries (one sequence over all connections).
 *
 * The two alternate, --rounds times --seconds each, and the ratio reported is the median of
 * the rounds' ratios: this machine's speed drifts by tens of percent within a minute, which
 * two back-to-back runs would read as a difference between the routes. The load generator
 * runs in this process (both routes pay for it alike).
 */
import Fastify from 'fastify';
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Scout } from '../src/compose.ts';
import { SearchResponse } from '../src/schemas/search.ts';
import { benchScout, load, median, queries, querySequence, summary, type Run, printRuns } from './load-kit.ts';
import { defined } from '../test/helpers/defined.ts';

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

/** A real answer of 10 results (the first query that has 10), served as is by the reference route. */
async function fixedAnswer(scout: Scout, qs: string[]): Promise<SearchResponse> {
  for (const query of qs) {
    const { body } = await scout.search.run(
      { query, max_results: 10 },
      { requestId: 'reference', startedAt: performance.now() },
    );
    if (body.results.length === 10) return body;
  }
  throw new Error('no query of the corpus has 10 results');
}

async function main() {
  const t0 = performance.now();
  const { scout, key, url, root } = await benchScout(DOCS);
  console.log(
    `Scout with ${DOCS} documents ranked in memory, ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  // A reference beside the goal's baseline: the same bare Fastify answering a POST of the
  // same body with a fixed search response of 10 results (same schema serializer), doing no
  // other work. The distance from hello-world to it is what the request and response
  // sizes cost alone, before any of Scout's work.
  const sample = await fixedAnswer(scout, queries(200));
  const hello = Fastify();
  hello.get('/', async () => ({ hello: 'world' }));
  hello.post('/fixed', { schema: { response: { 200: SearchResponse } } }, async () => sample);
  await hello.listen({ port: 0, host: '127.0.0.1' });
  const helloUrl = `http://127.0.0.1:${(hello.server.address() as { port: number }).port}`;

  const qs = values['empty-queries']
    ? Array.from({ length: 2000 }, (_, i) => `zzqx${i}`)
    : queries(Number(values.queries));
  const helloOpts = { url: `${helloUrl}/` };
  const fixedOpts = { url: helloUrl, requests: querySequence('/fixed', qs) };
  const searchOpts = { url, requests: querySequence('/v1/search', qs, key) };
  const bases: Run[] = [];
  const fixeds: Run[] = [];
  const searches: Run[] = [];
  // One warm-up of each so JIT and caches settle; then the measured rounds, alternating.
  for (const o of [helloOpts, fixedOpts, searchOpts]) await load('warm-up', o, 2, CONNECTIONS);
  const pct = (a: Run, b: Run): string => `${((100 * a.rps) / b.rps).toFixed(1)}%`;
  for (let r = 0; r < ROUNDS; r++) {
    const helloRun = await load('hello-world (bare Fastify)', helloOpts, SECONDS, CONNECTIONS);
    bases.push(helloRun);
    const fixedRun = await load('  reference: bare POST, fixed 10-result body', fixedOpts, SECONDS, CONNECTIONS);
    fixeds.push(fixedRun);
    const searchRun = await load(`POST /v1/search (local index, ${DOCS} docs)`, searchOpts, SECONDS, CONNECTIONS);
    searches.push(searchRun);
    console.log(
      `round ${r + 1}: hello ${helloRun.rps.toFixed(0)} req/s, reference ${fixedRun.rps.toFixed(0)} (${pct(fixedRun, helloRun)}), search ${searchRun.rps.toFixed(0)} (${pct(searchRun, helloRun)})`,
    );
  }
  const base = summary(bases);
  const fixed = summary(fixeds);
  const search = summary(searches);

  console.log(
    `\n${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s, same process, same run (medians)`,
  );
  printRuns('route', 44, [base, fixed, search]);
  const ratio = median(searches.map((x, i) => x.rps / defined(bases[i], `hello-world round ${i + 1}`).rps));
  const reference = median(fixeds.map((x, i) => x.rps / defined(bases[i], `hello-world round ${i + 1}`).rps));
  const ofReference = median(searches.map((x, i) => x.rps / defined(fixeds[i], `reference round ${i + 1}`).rps));
  console.log(`\nreference / hello-world requests/s: ${(reference * 100).toFixed(1)}% (payload sizes alone)`);
  console.log(
    `search / reference requests/s: ${(ofReference * 100).toFixed(1)}% (median of the rounds' ratios; goal >= 60%, issue 28)`,
  );
  console.log(
    `search / hello-world requests/s: ${(ratio * 100).toFixed(1)}% (median of the rounds' ratios; goal >= 40%)`,
  );

  await hello.close();
  await scout.close();
  rmSync(root, { recursive: true, force: true });
  if (search.errors + search.non2xx > 0) process.exitCode = 1;
}

await main();
