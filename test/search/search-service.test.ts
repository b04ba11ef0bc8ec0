import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSearchBudget } from '../../src/search/search-budget.ts';
import { createSearchService } from '../../src/search/search-service.ts';
import { createSearchBackend } from '../../src/providers/registry.ts';
import { createStores } from '../../src/store/create-stores.ts';

const results = [{ title: 'A', url: 'https://a.example/', content: 'alpha' }];
const provider = { name: 'fixed', honours: new Set<never>(), search: async () => results };
const ctx = { requestId: 'r', startedAt: performance.now() };

describe('search service budget', () => {
  it('refunds the charge when a stage after the providers fails', async () => {
    const stores = createStores({ dataDir: mkdtempSync(join(tmpdir(), 'scout-svc-')), rateLimitRpm: 60 });
    const budget = createSearchBudget(stores.budget, 10, () => new Date('2026-11-21T00:00:00Z'));
    const failing = { apply: async () => Promise.reject(new Error('stage broke')) };
    const service = createSearchService({ backend: createSearchBackend([provider]), budget, content: failing });
    await expect(service.run({ query: 'alpha' }, ctx)).rejects.toThrow('stage broke');
    expect(await budget.used('2026-11')).toBe(0);
    const ok = createSearchService({ backend: createSearchBackend([provider]), budget });
    expect((await ok.run({ query: 'alpha', search_depth: 'advanced' }, ctx)).body.results).toHaveLength(1);
    expect(await budget.used('2026-11')).toBe(2);
    await stores.close();
  });
});

describe('search service sponsored stage', () => {
  it('puts the ads first with their advertisers, and asks for none when told not to', async () => {
    const stores = createStores({ dataDir: mkdtempSync(join(tmpdir(), 'scout-svc-')), rateLimitRpm: 60 });
    const budget = createSearchBudget(stores.budget, 10, () => new Date('2026-11-21T00:00:00Z'));
    let asked = 0;
    const ad = {
      type: 'sponsored' as const,
      position: 1,
      title: 'Ad',
      url: 'https://scout.test/v1/r/rec_1',
      domain: 'ad.example',
      content: 'Buy.',
      disclosure: 'Sponsored · Acme',
    };
    const sponsored = { select: async () => (asked++, [{ result: ad, advertiser: 'Acme' }]) };
    const service = createSearchService({ backend: createSearchBackend([provider]), budget, sponsored });
    const withAds = await service.run({ query: 'alpha' }, ctx);
    expect(withAds.body.results.map((r) => r.type)).toEqual(['sponsored', 'organic']);
    expect(withAds.advertisers).toEqual(['Acme']);
    expect(asked).toBe(1);
    // A compat shape the operator turned ads off for: no auction, so no impression either.
    const without = await service.run({ query: 'alpha' }, ctx, { sponsored: false });
    expect(without.body.results.map((r) => r.type)).toEqual(['organic']);
    expect(without.advertisers).toEqual([]);
    expect(without.body.meta.sponsored_count).toBe(0);
    expect(asked).toBe(1);
    await stores.close();
  });
});
