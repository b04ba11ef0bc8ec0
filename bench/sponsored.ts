/**
 * npm run bench:sponsored [-- --docs 10000 --campaigns 1000 --seconds 3 --rounds 8 --connections 10]
 *
 * Issue 6: "the search benchmark from the foundation issue, run with 1,000 active campaigns:
 * requests/s stays within 10% of the same run with ads off". Two real Scouts in this process,
 * built the same way as bench/search.ts's (every stage, auth, rate limit, budget, request
 * log, the same --docs synthetic documents ranked in memory): one with ads off
 * (SCOUT_SPONSORED_MAX=0), one with --campaigns active campaigns and SCOUT_SPONSORED_MAX=2.
 * Both get the same global sequence of 2,000 distinct queries; rounds alternate off/on and
 * the ratio is the median of the rounds' ratios (this machine's speed drifts within a
 * minute). Also prints the share of searches that showed ads and the stage's own cost per
 * call beside the whole search's. Campaign keywords are drawn from the corpus titles, the
 * queries' vocabulary, so most searches match campaigns and pay the full cost (matching,
 * auction, impressions queued and written).
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { SearchQuery } from '../src/search/search-types.ts';
import { STOP_WORDS } from '../src/content/stop-words.ts';
import {
  benchScout,
  load,
  median,
  queries,
  querySequence,
  summary,
  titleWords,
  type Run,
  printRuns,
} from './load-kit.ts';
import { rng } from './make-corpus.ts';
import { defined } from '../test/helpers/defined.ts';

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: '10000' },
    campaigns: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '8' },
  },
});
const DOCS = Number(values.docs);
const CAMPAIGNS = Number(values.campaigns);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const ROUNDS = Number(values.rounds);

/** Campaigns with 1-4 keywords (single words and two-word phrases) from the same vocabulary. */
function campaignFiles(words: string[], n: number): Record<string, unknown>[] {
  const rand = rng(1234);
  const word = () => words[Math.floor(rand() * words.length)] as string;
  const topical = words.filter((w) => !STOP_WORDS.has(w));
  return Array.from({ length: n }, (_, i) => ({
    advertiser: `Advertiser ${i}`,
    title: `Sponsored offer ${i}`,
    // An IP literal on an allowlisted loopback range: landing pages are checked by the fetch
    // address policy when stored, and a literal needs no DNS (the bench never leaves the machine).
    url: `http://127.0.0.2/advertiser-${i}/landing`,
    content: `The ad text of campaign ${i}.`,
    keywords: Array.from({ length: 1 + Math.floor(rand() * 4) }, () =>
      rand() < 0.6
        ? (topical[Math.floor(rand() * topical.length)] as string)
        : `${word()} ${topical[Math.floor(rand() * topical.length)]}`,
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
  const off = await benchScout(DOCS, { SCOUT_SPONSORED_MAX: '0' });
  const on = await benchScout(DOCS, { SCOUT_SPONSORED_MAX: '2', SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32' });
  const words = titleWords();
  for (const file of campaignFiles(words, CAMPAIGNS)) await on.scout.sponsored.admin.create(file);
  const qs = queries(2000, words);

  let withAds = 0;
  for (const q of qs)
    if (
      (await on.scout.search.run({ query: q }, { requestId: 'probe', startedAt: performance.now() })).body.meta
        .sponsored_count > 0
    )
      withAds++;

  const offOpts = { url: off.url, requests: querySequence('/v1/search', qs, off.key) };
  const onOpts = { url: on.url, requests: querySequence('/v1/search', qs, on.key) };
  await load('warm-up', offOpts, 2, CONNECTIONS);
  await load('warm-up', onOpts, 2, CONNECTIONS);
  const offRuns: Run[] = [];
  const onRuns: Run[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const off = await load('POST /v1/search, ads off', offOpts, SECONDS, CONNECTIONS);
    offRuns.push(off);
    const on = await load('POST /v1/search, ads on (max 2)', onOpts, SECONDS, CONNECTIONS);
    onRuns.push(on);
    console.log(
      `round ${r + 1}: ads off ${off.rps.toFixed(0)} req/s, ads on ${on.rps.toFixed(0)} (${((100 * on.rps) / off.rps).toFixed(1)}%)`,
    );
  }

  const query = (i: number): SearchQuery => ({
    query: qs[i % qs.length] as string,
    maxResults: 10,
    includeDomains: [],
    excludeDomains: [],
    depth: 'basic',
  });
  const stageUs = await micros(20_000, (i) =>
    on.scout.sponsored.stage.select(query(i), { requestId: 'bench', startedAt: 0 }),
  );
  const searchUs = await micros(2_000, (i) =>
    off.scout.search.run({ query: qs[i % qs.length] as string }, { requestId: 'bench', startedAt: 0 }),
  );

  console.log(
    `\n${DOCS} documents, ${CAMPAIGNS} active campaigns, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s (medians)`,
  );
  printRuns('route', 34, [summary(offRuns), summary(onRuns)]);
  const ratio = median(onRuns.map((r, i) => r.rps / defined(offRuns[i], `ads-off round ${i + 1}`).rps));
  console.log(
    `\nads on / ads off requests/s: ${(ratio * 100).toFixed(1)}% (median of the rounds' ratios; goal >= 90%)`,
  );
  console.log(`searches that showed ads: ${((withAds / qs.length) * 100).toFixed(0)}% of ${qs.length} queries`);
  console.log(
    `sponsored stage alone: ${stageUs.toFixed(1)} µs per search; whole search (service, ads off): ${searchUs.toFixed(0)} µs`,
  );

  const errors = [...offRuns, ...onRuns].reduce((n, r) => n + r.errors + r.non2xx, 0);
  for (const s of [on, off]) {
    await s.scout.close();
    rmSync(s.root, { recursive: true, force: true });
  }
  if (ratio < 0.9 || errors > 0) process.exitCode = 1;
}

await main();
