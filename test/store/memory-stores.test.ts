import { describe, expect, it } from 'vitest';
import { createMemoryBudgetStore } from '../../src/store/memory/memory-budget-store.ts';
import { createMemoryCrawlJobStore } from '../../src/store/memory/memory-crawl-job-store.ts';
import { createMemoryIndexStore } from '../../src/store/memory/memory-index-store.ts';
import { createMemoryKeyStore } from '../../src/store/memory/memory-key-store.ts';
import { createMemoryRateLimiter } from '../../src/store/memory/memory-rate-limiter.ts';
import { createMemoryResultCache } from '../../src/store/memory/memory-result-cache.ts';
import { createMemorySponsoredStores, createMemoryStores } from '../../src/store/memory/memory-stores.ts';
import { campaignRecord, impression, read } from './contract/contract-fixtures.ts';
import { adEventStoreContract } from './contract/ad-event-store.ts';
import { budgetStoreContract } from './contract/budget-store.ts';
import { campaignStoreContract } from './contract/campaign-store.ts';
import { crawlJobStoreContract } from './contract/crawl-job-store.ts';
import { indexDocumentStoreContract } from './contract/index-document-store.ts';
import { keyStoreContract } from './contract/key-store.ts';
import { rateLimiterContract } from './contract/rate-limiter.ts';
import { resultCacheContract } from './contract/result-cache.ts';
import { secretStoreContract } from './contract/secret-store.ts';

keyStoreContract('memory', async () => createMemoryKeyStore());
budgetStoreContract('memory', async () => createMemoryBudgetStore());
campaignStoreContract('memory', async () => createMemorySponsoredStores().campaigns);
adEventStoreContract('memory', async () => createMemorySponsoredStores());
secretStoreContract('memory', async () => {
  const { secrets } = createMemorySponsoredStores();
  return [secrets, secrets];
});
crawlJobStoreContract('memory', async () => {
  const jobs = createMemoryCrawlJobStore();
  return [jobs, jobs];
});

// One fake clock for every limiter the suite makes: the refill cases move it.
let now = 1_000_000;
rateLimiterContract('memory', async (perMinute) => createMemoryRateLimiter(perMinute, () => now), {
  advance: (ms) => {
    now += ms;
  },
});

indexDocumentStoreContract('memory', async () => createMemoryIndexStore());

// The in-process cache, one process: the same cache is both "replicas". Its own clock, which
// the TTL case moves (lru-cache reads a start time of 0 as "no TTL": start past it).
let cacheNow = 5000;
resultCacheContract(
  'memory',
  async (ttlMs) => {
    const cache = createMemoryResultCache({ ttlMs, max: 1000, now: () => cacheNow });
    return [cache, cache];
  },
  {
    advance: (ms) => {
      cacheNow += ms;
    },
  },
);

describe('memory stores', () => {
  it('createMemoryStores wires each port to its memory twin, on the clock given', async () => {
    let t = 0;
    const stores = createMemoryStores({ rateLimitRpm: 2 }, () => t);
    await stores.keys.insert({ id: 'key_a', name: 'a', hash: 'h1', createdAt: '2026-01-01T00:00:00.000Z' });
    expect(await stores.keys.count()).toBe(1);
    expect(await stores.budget.consume('p', 1, 1)).toEqual({ allowed: true, used: 1 });
    expect((await stores.rateLimiter.consume('k', 2)).allowed).toBe(true);
    expect((await stores.rateLimiter.consume('k', 1)).allowed).toBe(false);
    t += 30_000;
    expect((await stores.rateLimiter.consume('k', 1)).allowed).toBe(true);
    await stores.ping();
    await stores.close();
  });

  it('sponsored stores price reads from their own campaigns only', async () => {
    const one = createMemorySponsoredStores();
    const other = createMemorySponsoredStores();
    await one.campaigns.insert(campaignRecord('cmp_a'));
    const events = [impression('rec_1', 'cmp_a'), read('rec_1', 'cmp_a')];
    expect(await other.events.write(events)).toEqual([]);
    expect(await one.events.write(events)).toEqual([{ campaignId: 'cmp_a', day: '2026-03-10', micros: 300 }]);
  });
});
