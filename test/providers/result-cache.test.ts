import { describe, expect, it } from 'vitest';
import { answerCache, answerKey, createResultCache, searchCacheKey } from '../../src/providers/result-cache.ts';
import { createMemoryResultCache } from '../../src/store/memory/memory-result-cache.ts';
import { query } from './mock-upstream.ts';
import { defined } from '../helpers/defined.ts';

const answer = { results: [{ title: 't', url: 'https://a.com/', content: 'c' }], providers: ['brave'] };

describe('searchCacheKey', () => {
  it('folds case, spaces and list order, and separates every other field', () => {
    const base = searchCacheKey(query({ includeDomains: ['a.com', 'b.com'] }));
    expect(searchCacheKey(query({ query: '  Rust   ASYNC runtime', includeDomains: ['b.com', 'a.com'] }))).toBe(base);
    for (const over of [
      { maxResults: 5 },
      { depth: 'advanced' as const },
      { country: 'DE' },
      { startDate: '2025-01-01' },
      { excludeDomains: ['a.com'] },
      { freshness: 'day' as const },
      { maxContentTokens: 500 },
    ]) {
      expect(searchCacheKey(query({ includeDomains: ['a.com', 'b.com'], ...over }))).not.toBe(base);
    }
  });
});

describe('createResultCache', () => {
  it('expires entries after the TTL', async () => {
    // lru-cache reads a start time of 0 as "no TTL": real clocks never say 0.
    let t = 5000;
    const c = createResultCache({ ttlMs: 1000, max: 10, now: () => t });
    await c.set(query(), answer);
    t = 5999;
    expect(await c.get(query())).toEqual(answer);
    t = 6001;
    expect(await c.get(query())).toBeUndefined();
  });

  it('evicts the least recently used entry past max and hands out copies of its own', async () => {
    const c = createResultCache({ ttlMs: 60_000, max: 2 });
    await c.set(query({ query: 'a' }), answer);
    await c.set(query({ query: 'b' }), answer);
    await c.get(query({ query: 'a' }));
    await c.set(query({ query: 'c' }), answer);
    expect(await c.get(query({ query: 'b' }))).toBeUndefined();
    expect(c.size).toBe(2);
    const hit = (await c.get(query({ query: 'a' })))!;
    expect(hit.results[0]).not.toBe(answer.results[0]);
    // Each hit is parsed from the kept text: changing one changes nothing kept.
    defined(hit.results[0], 'a cached result').title = 'changed';
    expect(await c.get(query({ query: 'a' }))).toEqual(answer);
  });

  it('is disabled by a TTL of 0', async () => {
    const c = createResultCache({ ttlMs: 0, max: 10 });
    expect(c.enabled).toBe(false);
    await c.set(query(), answer);
    expect(await c.get(query())).toBeUndefined();
  });

  it('finds an answer only under the revision it was stored with', async () => {
    const c = createResultCache({ ttlMs: 60_000, max: 10 });
    await c.set(query(), answer, 'r1\n');
    expect(await c.get(query(), 'r1\n')).toEqual(answer);
    expect(await c.get(query(), 'r2\n')).toBeUndefined();
    expect(await c.get(query())).toBeUndefined();
  });
});

describe('answerCache', () => {
  it('over a cache that is off, misses without asking the port, and hands it nothing to keep', async () => {
    const calls: string[] = [];
    const port = {
      enabled: false,
      get: async (key: string): Promise<string | undefined> => {
        calls.push(`get ${key}`);
        return undefined;
      },
      set: async (key: string) => void calls.push(`set ${key}`),
    };
    const c = answerCache(port);
    expect(c.enabled).toBe(false);
    await c.set(query(), answer, 'r1\n');
    expect(await c.get(query(), 'r1\n')).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('keeps an answer as JSON under the revision and the search, and reads text that is not an answer as a miss', async () => {
    const port = createMemoryResultCache({ ttlMs: 60_000, max: 10 });
    const c = answerCache(port);
    await c.set(query(), { ...answer, cached: false } as typeof answer, 'r1\n');
    expect(JSON.parse((await port.get(answerKey(query(), 'r1\n')))!)).toEqual(answer);
    for (const text of ['{not json', '{"results":1,"providers":[]}', 'null']) {
      await port.set(answerKey(query(), 'r1\n'), text);
      expect(await c.get(query(), 'r1\n')).toBeUndefined();
    }
  });
});

describe('createResultCache size bound', () => {
  it('drops least recently used answers once the cached text passes maxChars, and never keeps an oversized one', async () => {
    const page = (n: number) => ({ title: 't', url: `https://e.com/${n}`, content: 'c', rawContent: 'x'.repeat(1000) });
    const c = createResultCache({ ttlMs: 60_000, max: 1000, maxChars: 5000 });
    for (let i = 0; i < 10; i++) await c.set(query({ query: `q${i}` }), { results: [page(i)], providers: ['local'] });
    expect(c.size).toBeLessThanOrEqual(4);
    expect(await c.get(query({ query: 'q9' }))).toBeDefined();
    expect(await c.get(query({ query: 'q0' }))).toBeUndefined();
    await c.set(query({ query: 'huge' }), {
      results: [{ ...page(99), rawContent: 'y'.repeat(10_000) }],
      providers: ['local'],
    });
    expect(await c.get(query({ query: 'huge' }))).toBeUndefined();
  });
});
