/**
 * node --import tsx bench/sponsored.ts [-- --docs 10000 --campaigns 1000 --seconds 4 --rounds 6 --connections 10]
 *
 * Issue 6: with 1,000 active campaigns, search requests/s must stay within 10% of the same
 * run with ads off. One process, one local index (--docs synthetic documents, caches off so
 * every search hits it), one HTTP server with two routes that differ only in the sponsored
 * stage: POST /v1/search (ads on, SCOUT_SPONSORED_MAX=2) and POST /v1/search-off (no stage).
 * Rounds alternate off/on so drift hits both, and the ratio is the median of the rounds'
 * ratios (this machine's speed drifts by tens of percent within a minute); prints requests/s, p50, p99, the ratio, the
 * share of searches that showed ads, and the stage's own cost per call beside the search's.
 * Campaign keywords are drawn from the corpus titles, the queries' vocabulary, so most
 * searches match campaigns and pay the full cost (matching, auction, impression queued).
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSearchBudget } from '../src/domain/search-budget.ts';
import { createSearchService, type SearchService } from '../src/domain/search-service.ts';
import type { SearchQuery } from '../src/domain/search-types.ts';
import { AJV_OPTIONS } from '../src/http/ajv-options.ts';
import { openLocalIndex } from '../src/index/local-index.ts';
import { STOP_WORDS } from '../src/index/stop-words.ts';
import { createLocalProvider } from '../src/providers/local.ts';
import { createSearchBackend } from '../src/providers/registry.ts';
import { SearchRequest, SearchResponse } from '../src/schemas/search.ts';
import { createSponsored } from '../src/sponsored/create-sponsored.ts';
import { createStores } from '../src/store/create-stores.ts';
import { corpusLines, rng } from './make-corpus.ts';

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: '10000' },
    campaigns: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '4' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '6' },
  },
});
const DOCS = Number(values.docs);
const CAMPAIGNS = Number(values.campaigns);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const ROUNDS = Number(values.rounds);

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

interface BenchRequest {
  method: 'POST';
  path: string;
  headers: Record<string, string>;
  body: string;
}

async function load(url: string, requests: BenchRequest[], duration: number): Promise<Run> {
  const r = await autocannon({ url, requests, duration, connections: CONNECTIONS });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

/** Lower-case title words of the corpus: the vocabulary of queries and keywords alike. */
function titleWords(): string[] {
  return [...corpusLines({ docs: 200, seed: 7 })].flatMap((l) => (JSON.parse(l).title as string).toLowerCase().split(' '));
}

/** Queries of 2-4 corpus words, as bench/search.ts makes them. */
function queries(words: string[], n: number): string[] {
  const rand = rng(99);
  return Array.from({ length: n }, () => {
    const k = 2 + Math.floor(rand() * 3);
    return Array.from({ length: k }, () => words[Math.floor(rand() * words.length)]).join(' ');
  });
}

/** Campaigns with 1-4 keywords (single words and two-word phrases) from the same vocabulary. */
function campaignFiles(words: string[], n: number): Record<string, unknown>[] {
  const rand = rng(1234);
  const word = () => words[Math.floor(rand() * words.length)] as string;
  const topical = words.filter((w) => !STOP_WORDS.has(w));
  return Array.from({ length: n }, (_, i) => ({
    advertiser: `Advertiser ${i}`,
    title: `Sponsored offer ${i}`,
    url: `https://advertiser-${i}.example/landing`,
    content: `The ad text of campaign ${i}.`,
    keywords: Array.from({ length: 1 + Math.floor(rand() * 4) }, () =>
      rand() < 0.6 ? (topical[Math.floor(rand() * topical.length)] as string) : `${word()} ${topical[Math.floor(rand() * topical.length)]}`,
    ),
    bid_micros: 1000 + Math.floor(rand() * 500_000),
    budget_micros: 1_000_000_000_000,
    ...(rand() < 0.1 ? { countries: ['US'] } : {}),
  }));
}

/** Mean microseconds per call of `fn` over `n` calls, awaited one by one. */
async function micros(n: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  return ((performance.now() - t0) * 1000) / n;
}

async function main() {
  const root = mkdtempSync(join(tmpdir(), 'scout-bench-sponsored-'));
  const index = openLocalIndex(join(root, 'index.db'), { cacheSize: 0 });
  const docs = [...corpusLines({ docs: DOCS, seed: 42 })].map((l) => JSON.parse(l));
  for (let i = 0; i < docs.length; i += 1000) index.upsert(docs.slice(i, i + 1000));
  // Ranked in memory on both sides, as a server does once its ranker is built.
  index.syncRanker();
  const stores = createStores({ dataDir: root, rateLimitRpm: 1_000_000 });
  const budget = createSearchBudget(stores.budget, 1_000_000_000);
  const backend = createSearchBackend([createLocalProvider(index)], { cacheTtlMs: 0 });
  const sponsored = createSponsored({ dataDir: root, maxAds: 2, recTtlDays: 30, publicUrl: 'http://localhost:8080' });

  const words = titleWords();
  for (const file of campaignFiles(words, CAMPAIGNS)) await sponsored.admin.create(file);
  const qs = queries(words, 2000);

  const services: Record<string, SearchService> = {
    '/v1/search-off': createSearchService({ backend, budget }),
    '/v1/search': createSearchService({ backend, budget, sponsored: sponsored.stage }),
  };
  const app = Fastify({ ajv: { customOptions: { ...AJV_OPTIONS, keywords: [...AJV_OPTIONS.keywords] } } });
  for (const [path, service] of Object.entries(services)) {
    app.post<{ Body: SearchRequest }>(path, { schema: { body: SearchRequest, response: { 200: SearchResponse } } }, async (request) => {
      return (await service.run(request.body, { requestId: request.id, startedAt: performance.now() })).body;
    });
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const bodies = (path: string) =>
    qs.map((q) => ({ method: 'POST' as const, path, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: q, max_results: 10 }) }));

  let withAds = 0;
  for (const q of qs) if ((await services['/v1/search']!.run({ query: q }, { requestId: 'probe', startedAt: performance.now() })).body.meta.sponsored_count > 0) withAds++;

  await load(base, bodies('/v1/search-off'), 2); // warm-up of both paths
  await load(base, bodies('/v1/search'), 2);
  const off: Run[] = [];
  const on: Run[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    off.push(await load(base, bodies('/v1/search-off'), SECONDS));
    on.push(await load(base, bodies('/v1/search'), SECONDS));
  }

  const query = (i: number): SearchQuery => ({ query: qs[i % qs.length] as string, maxResults: 10, includeDomains: [], excludeDomains: [], depth: 'basic' });
  const stageUs = await micros(20_000, (i) => sponsored.stage.select(query(i), { requestId: 'bench', startedAt: 0 }));
  const searchUs = await micros(2_000, (i) => services['/v1/search-off']!.run({ query: qs[i % qs.length] as string }, { requestId: 'bench', startedAt: 0 }));

  const avg = (runs: Run[], k: keyof Run) => runs.reduce((s, r) => s + r[k], 0) / runs.length;
  const line = (name: string, runs: Run[]) =>
    console.log(
      name.padEnd(34),
      avg(runs, 'rps').toFixed(0).padStart(8),
      avg(runs, 'p50').toFixed(1).padStart(8),
      avg(runs, 'p99').toFixed(1).padStart(8),
      String(avg(runs, 'errors')).padStart(7),
      `  rounds: ${runs.map((r) => r.rps.toFixed(0)).join(', ')}`,
    );
  console.log(`\n${DOCS} documents, ${CAMPAIGNS} active campaigns, ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s per side, alternating`);
  console.log('route'.padEnd(34), 'req/s'.padStart(8), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'errors'.padStart(7));
  line('POST /v1/search, ads off', off);
  line('POST /v1/search, ads on (max 2)', on);
  const ratios = on.map((r, i) => r.rps / off[i]!.rps).sort((a, b) => a - b);
  const mid = ratios.length / 2;
  const ratio = ratios.length % 2 ? ratios[Math.floor(mid)]! : (ratios[mid - 1]! + ratios[mid]!) / 2;
  console.log(`\nads on / ads off requests/s: ${(ratio * 100).toFixed(1)}% (median of the rounds' ratios; goal >= 90%)`);
  console.log(`searches that showed ads: ${((withAds / qs.length) * 100).toFixed(0)}% of ${qs.length} queries`);
  console.log(`sponsored stage alone: ${stageUs.toFixed(1)} µs per search; whole search (service, ads off): ${searchUs.toFixed(0)} µs`);

  await app.close();
  await sponsored.close();
  index.close();
  await stores.close();
  rmSync(root, { recursive: true, force: true });
  if (ratio < 0.9 || avg(on, 'errors') + avg(off, 'errors') > 0) process.exitCode = 1;
}

await main();
