/**
 * Cost of search_depth "advanced":
 *   node --import tsx bench/advanced.ts [--runs 15]
 * Ten realistic article pages (20-80 KB of HTML with site chrome) on a loopback fixture
 * server; the content stage fetches them through the real fetch pipeline (guard, pinned
 * connection, extraction) and cuts them to the default 8000-token budget. Printed, all from
 * this run:
 * - wall time per search of basic (results as given), advanced, and a transport floor (the
 *   same ten GETs with undici at the same concurrency, no extraction), and the added time;
 * - CPU ms per result (process.cpuUsage) for extraction, passage scoring and the token cut,
 *   each measured alone on the same pages.
 */
import { request } from 'undici';
import { createContentStage } from '../src/content/content-stage.ts';
import { forEachLimited } from '../src/content/concurrency.ts';
import { bestPassages } from '../src/content/passages.ts';
import { cutToTokens } from '../src/content/token-budget.ts';
import { createFetchService } from '../src/fetch/fetch-service.ts';
import type { ProviderResult, SearchQuery } from '../src/search/search-types.ts';
import { extractDocument } from '../src/extract/extract-document.ts';
import { makeArticle } from '../test/content/article-pages.ts';
import { defined } from '../test/helpers/defined.ts';
import { startFixtureServer } from '../test/helpers/fixture-server.ts';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 15;
const TOPIC = ['glacier', 'meltwater', 'albedo'];
const HTML = 'text/html; charset=utf-8';

const articles = Array.from({ length: 10 }, (_, i) =>
  makeArticle({ seed: 100 + i, topic: TOPIC, kb: 20 + Math.round((60 * i) / 9) }),
);
const site = await startFixtureServer(
  Object.fromEntries(articles.map((a, i) => [`/a${i}`, { headers: { 'content-type': HTML }, body: a.html }])),
);
const fetcher = createFetchService({
  allowCidrs: ['127.0.0.2/32'],
  timeoutMs: 10_000,
  extract: extractDocument,
  resolver: async () => [],
});
const stage = createContentStage({ fetchPage: (url) => fetcher.fetch({ url, maxChars: 200_000 }) });
const results: ProviderResult[] = articles.map((a, i) => ({
  title: a.title,
  url: site.url(`/a${i}`),
  content: defined(a.facts[0], 'a first fact'),
}));
const query = (depth: SearchQuery['depth']): SearchQuery => ({
  query: 'glacier albedo survey results',
  maxResults: 10,
  includeDomains: [],
  excludeDomains: [],
  depth,
});

async function timed(fn: () => Promise<unknown>): Promise<number[]> {
  await fn(); // warm-up: JIT, merge caches, connection pool
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    await fn();
    ms.push(performance.now() - start);
  }
  return ms.sort((a, b) => a - b);
}

const median = (xs: number[]): number => defined(xs[Math.floor(xs.length / 2)], 'a median');
const p95 = (xs: number[]): number => defined(xs[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)], 'a p95');

async function transportFloor(): Promise<void> {
  await forEachLimited(results, 4, async (r) => {
    const res = await request(r.url);
    await res.body.arrayBuffer();
  });
}

/** CPU ms (user + system) per call of `fn` over every page, averaged over RUNS rounds. */
function cpuPerResult<T>(inputs: T[], fn: (input: T) => unknown): number {
  for (const input of inputs) fn(input);
  const before = process.cpuUsage();
  for (let r = 0; r < RUNS; r += 1) for (const input of inputs) fn(input);
  const d = process.cpuUsage(before);
  return (d.user + d.system) / 1000 / (RUNS * inputs.length);
}

const basic = await timed(() => stage.apply(query('basic'), results));
const floor = await timed(transportFloor);
const cpuBefore = process.cpuUsage();
const advanced = await timed(() => stage.apply(query('advanced'), results));
const cpuAll = process.cpuUsage(cpuBefore);
// Whole process per result: also counts the fixture server, HTTP client and guard.
const cpuAllPerResult = (cpuAll.user + cpuAll.system) / 1000 / ((RUNS + 1) * results.length);

const sample = await stage.apply(query('advanced'), results);
const fetched = sample.filter((r) => r.rawContent !== undefined).length;

const bodies = articles.map((a, i) => ({
  body: new TextEncoder().encode(a.html),
  contentType: HTML,
  url: site.url(`/a${i}`),
}));
const markdowns = await Promise.all(bodies.map(async (b) => (await extractDocument(b)).markdown));
const cpuExtract = await (async () => {
  for (const b of bodies) await extractDocument(b);
  const before = process.cpuUsage();
  for (let r = 0; r < RUNS; r += 1) for (const b of bodies) await extractDocument(b);
  const d = process.cpuUsage(before);
  return (d.user + d.system) / 1000 / (RUNS * bodies.length);
})();
const cpuPassages = cpuPerResult(markdowns, (md) => bestPassages(md, query('advanced').query));
const cpuCut = cpuPerResult(markdowns, (md) => cutToTokens(md, 800));

const kb = articles.map((a) => a.html.length / 1024);
console.log(
  `pages: 10 article pages, ${Math.min(...kb).toFixed(0)}-${Math.max(...kb).toFixed(0)} KB HTML; ${RUNS} runs each; advanced filled ${fetched}/10 results`,
);
console.log('wall time per search        median      p95');
const row = (label: string, xs: number[]) =>
  console.log(`${label.padEnd(26)} ${median(xs).toFixed(1).padStart(7)} ms ${p95(xs).toFixed(1).padStart(7)} ms`);
row('basic (results as given)', basic);
row('transport floor (10 GETs)', floor);
row('advanced', advanced);
console.log(
  `added by advanced over basic: ${(median(advanced) - median(basic)).toFixed(1)} ms (median); ${(median(advanced) / median(floor)).toFixed(1)}x the transport floor`,
);
console.log('CPU per result');
console.log(`  extraction (HTML → markdown)  ${cpuExtract.toFixed(2)} ms`);
console.log(`  passage scoring (BM25)        ${cpuPassages.toFixed(2)} ms`);
console.log(`  token cut (800-token share)   ${cpuCut.toFixed(2)} ms`);
console.log(`  extraction + passage scoring  ${(cpuExtract + cpuPassages).toFixed(2)} ms`);
console.log(`  whole process, advanced runs  ${cpuAllPerResult.toFixed(2)} ms (fixture server and HTTP included)`);

await fetcher.close();
await site.close();
