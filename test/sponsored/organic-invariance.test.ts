import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainAllowed, displayDomain } from '../../src/domain/domains.ts';
import { createSearchBudget } from '../../src/search/search-budget.ts';
import { createSearchService, type SearchService } from '../../src/search/search-service.ts';
import type { ProviderResult, SearchQuery } from '../../src/search/search-types.ts';
import type { SearchBackend } from '../../src/search/search-backend.ts';
import { SearchResponse, type SearchRequest } from '../../src/schemas/search.ts';
import { createStores } from '../../src/store/create-stores.ts';
import type { Stores } from '../../src/store/ports.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { ctx, sponsoredHarness, type SponsoredHarness } from './sponsored-fixture.ts';
// The corpus generator's seeded PRNG (mulberry32): the property test is random but reproducible.
import { rng } from '../../bench/make-corpus.ts';

const WORDS = [
  'running',
  'shoes',
  'vpn',
  'python',
  'tutorial',
  'coffee',
  'beans',
  'laptop',
  'cheap',
  'best',
  'review',
  'hosting',
  'the',
  'for',
  'crème',
  'Café',
];
const DOMAINS = [
  'acme.example',
  'shop.acme.example',
  'docs.python.example',
  'news.example',
  'blog.example',
  'cafe.example',
];

const rand = rng(20260310);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
const some = <T>(list: readonly T[], max: number): T[] =>
  Array.from({ length: 1 + Math.floor(rand() * max) }, () => pick(list));

/** A fixed pool of organic documents; the backend returns those sharing a word with the query. */
const POOL: ProviderResult[] = Array.from({ length: 80 }, (_, i) => ({
  title: `${some(WORDS, 3).join(' ')} ${i}`,
  url: `https://${pick(DOMAINS)}/doc/${i}`,
  content: some(WORDS, 8).join(' '),
  ...(i % 3 === 0 ? { publishedDate: '2026-01-02' } : {}),
}));

const backend: SearchBackend = {
  async search(q: SearchQuery) {
    const terms = q.query.toLowerCase().split(/\s+/);
    const results = POOL.filter((d) => terms.some((t) => `${d.title} ${d.content}`.toLowerCase().includes(t)))
      .filter((d) => domainAllowed(displayDomain(d.url), q.includeDomains, q.excludeDomains))
      .slice(0, q.maxResults);
    return { results, providers: ['fixed'] };
  },
};

function randomRequest(): SearchRequest {
  const req: SearchRequest = { query: some(WORDS, 4).join(' '), max_results: 1 + Math.floor(rand() * 20) };
  if (rand() < 0.2) req.include_domains = some(DOMAINS, 2);
  if (rand() < 0.2) req.exclude_domains = pick(DOMAINS);
  if (rand() < 0.3) req.country = pick(['us', 'DE', 'fr']);
  return req;
}

function randomCampaign(i: number): Record<string, unknown> {
  const file: Record<string, unknown> = {
    advertiser: `Advertiser ${i}`,
    title: `Ad ${i}`,
    url: `https://${pick(DOMAINS)}/landing/${i}`,
    content: `Ad text ${i}`,
    keywords: some(
      ['running shoes', 'vpn', 'python tutorial', 'coffee beans', 'laptop', 'cheap hosting', 'café crème'],
      2,
    ),
    bid_micros: 1 + Math.floor(rand() * 500_000),
    budget_micros: 1_000_000_000,
  };
  if (rand() < 0.2) file.countries = ['US'];
  if (rand() < 0.2) file.negative_keywords = ['review'];
  return file;
}

let root: string;
let stores: Stores;
let h: SponsoredHarness;
let adsOn: SearchService;
let adsOff: SearchService;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'scout-invariance-'));
  stores = createStores({ dataDir: root, rateLimitRpm: 60 });
  const budget = createSearchBudget(stores.budget, 1_000_000);
  h = sponsoredHarness({ maxAds: 3 });
  for (let i = 0; i < 40; i++) await h.sponsored.admin.create(randomCampaign(i));
  adsOn = createSearchService({ backend, budget, sponsored: h.sponsored.stage });
  adsOff = createSearchService({ backend, budget });
});

afterAll(async () => {
  await h.close();
  await stores.close();
  rmSync(root, { recursive: true, force: true });
});

describe('organic results are never touched by sponsors (property test)', () => {
  it('500 random searches: identical organic lists with ads on and off; ads first, numbered apart', async () => {
    let withAds = 0;
    for (let n = 0; n < 500; n++) {
      const req = randomRequest();
      const on = (await adsOn.run(structuredClone(req), ctx())).body;
      const off = (await adsOff.run(structuredClone(req), ctx())).body;
      expectShape(SearchResponse, on);
      const organicOn = on.results.filter((r) => r.type === 'organic');
      const sponsored = on.results.filter((r) => r.type === 'sponsored');
      expect(organicOn, JSON.stringify(req)).toEqual(off.results);
      expect(on.results.slice(0, sponsored.length)).toEqual(sponsored);
      expect(sponsored.map((r) => r.position)).toEqual(sponsored.map((_, i) => i + 1));
      expect(on.meta.sponsored_count).toBe(sponsored.length);
      expect(on.meta.result_count).toBe(on.results.length);
      expect(sponsored.length).toBeLessThanOrEqual(3);
      if (sponsored.length > 0) withAds++;
    }
    // The property is only meaningful if ads did show on a good share of the searches.
    expect(withAds).toBeGreaterThan(100);
  });
});
