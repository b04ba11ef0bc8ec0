import { afterAll, describe, expect, it } from 'vitest';
import { defined } from '../../helpers/defined.ts';
import type { SearchQuery } from '../../../src/search/search-types.ts';
import { answerCache, answerKey, type AnswerCache, type CachedAnswer } from '../../../src/providers/result-cache.ts';
import type { ResultCache } from '../../../src/store/ports.ts';
import { query } from '../../providers/mock-upstream.ts';
import { waitFor } from '../../helpers/scout-process.ts';
import { newTag } from './contract-fixtures.ts';

export interface ResultCacheContractOptions {
  /**
   * Moves the clock of every cache `make` gave on by `ms`. Given by a backend whose clock the
   * test controls (the in-process cache); the others expire on real time, so keep their TTL
   * case short: it waits, bounded, for an answer of a 400 ms TTL to go.
   */
  advance?: (ms: number) => void;
  /** Runs once after the suite. */
  cleanup?: () => Promise<void>;
}

/** TTL of the expiry case on real time: long enough to read the answer back first. */
const SHORT_TTL_MS = 400;

const answerOf = (tag: string): CachedAnswer => ({
  results: [
    {
      title: `Tokio ${tag}`,
      url: `https://tokio.rs/${tag}`,
      content: 'An async runtime for Rust',
      extraSnippets: ['one', 'two'],
    },
    {
      title: 'async-std',
      url: 'https://async.rs/',
      content: 'Async version of the Rust standard library',
      publishedDate: '2024-06-01T00:00:00Z',
    },
  ],
  providers: ['brave', 'local'],
});

/** Tries to change everything of `a` a caller could; a frozen part throws, which is fine too. */
function scribble(a: CachedAnswer): void {
  const attempts = [
    () => a.results.push({ title: 'x', url: 'https://x.example/', content: 'x' }),
    () => a.results.reverse(),
    () => (defined(a.results[0], 'a first result').title = 'changed'),
    () => defined(a.results[0], 'a first result').extraSnippets?.push('changed'),
    () => a.providers.push('changed'),
    () => (a.providers = []),
  ];
  for (const attempt of attempts) {
    try {
      attempt();
    } catch {
      // frozen: the cache refused the change, as it may
    }
  }
}

/**
 * The ResultCache contract. `make(ttlMs)` gives two caches of that TTL over one store, as two
 * replicas would (two connections; the in-process cache, one process, hands the same cache
 * twice): what one sets the other gets. A TTL of 0 turns caching off. Caches may share their
 * store across tests, since every test searches for text of its own.
 *
 * The port keeps text under a key; the first case asks that of it directly. The others ask it
 * through the layer that keeps search answers in it (src/providers/result-cache.ts), as the
 * search backend does: the same answer back, under an equal search and revision only, for
 * the TTL.
 */
export function resultCacheContract(
  backend: string,
  make: (ttlMs: number) => Promise<[ResultCache, ResultCache]>,
  options: ResultCacheContractOptions = {},
): void {
  const { advance, cleanup } = options;
  const search = (over: Partial<SearchQuery> = {}): SearchQuery =>
    query({ query: `cache contract ${newTag()}`, ...over });
  const answers = async (ttlMs: number): Promise<[AnswerCache, AnswerCache]> => {
    const [a, b] = await make(ttlMs);
    return [answerCache(a), answerCache(b)];
  };

  describe(`ResultCache contract: ${backend}`, () => {
    if (cleanup) afterAll(cleanup);

    it('keeps text as it was given, under its key only', async () => {
      const [a, b] = await make(60_000);
      const values = ['{"results":[],"providers":["brave"]}', 'not JSON: é, ✓, 𝄞\n\u0000 and spaces  ', ''];
      for (const value of values) {
        const key = answerKey(search());
        await a.set(key, value);
        expect(await b.get(key)).toBe(value);
        expect(await a.get(key)).toBe(value);
        expect(await b.get(`${key} `)).toBeUndefined();
      }
    });

    it('gives back an equal answer, to the replica that set it and to the other one', async () => {
      const [a, b] = await answers(60_000);
      expect(a.enabled && b.enabled).toBe(true);
      const q = search();
      const answer = answerOf('get');
      expect(await b.get(q)).toBeUndefined();
      await a.set(q, answer);
      expect(await b.get(q)).toEqual(answer);
      expect(await a.get(q)).toEqual(answer);
      expect(await b.get(search())).toBeUndefined();
    });

    it('finds an answer only under the revision it was stored with', async () => {
      const [a, b] = await answers(60_000);
      const q = search();
      await a.set(q, answerOf('r1'), 'local:1\n');
      expect(await b.get(q, 'local:1\n')).toEqual(answerOf('r1'));
      expect(await b.get(q, 'local:2\n')).toBeUndefined();
      expect(await b.get(q)).toBeUndefined();
      await b.set(q, answerOf('r2'), 'local:2\n');
      expect(await a.get(q, 'local:2\n')).toEqual(answerOf('r2'));
      expect(await a.get(q, 'local:1\n')).toEqual(answerOf('r1'));
    });

    it('finds an equal search: query text folded for case and spaces, domain lists in any order', async () => {
      const [a, b] = await answers(60_000);
      const text = `Rust Async ${newTag()}`;
      const q = search({ query: text, includeDomains: ['a.com', 'b.com'], excludeDomains: ['c.com', 'd.com'] });
      await a.set(q, answerOf('fold'));
      const equal = search({
        query: `  ${text.toUpperCase().replace(/ /g, '   ')} `,
        includeDomains: ['b.com', 'a.com'],
        excludeDomains: ['d.com', 'c.com'],
      });
      expect(await b.get(equal)).toEqual(answerOf('fold'));
    });

    it('misses a search that differs in any other field of the request', async () => {
      const [a, b] = await answers(60_000);
      const text = `cache contract fields ${newTag()}`;
      const base: Partial<SearchQuery> = { query: text, includeDomains: ['a.com'], country: 'US' };
      await a.set(search(base), answerOf('fields'));
      expect(await b.get(search(base))).toEqual(answerOf('fields'));
      const others: Partial<SearchQuery>[] = [
        { query: `${text} more` },
        { maxResults: 5 },
        { depth: 'advanced' },
        { includeDomains: [] },
        { includeDomains: ['a.com', 'b.com'] },
        { excludeDomains: ['a.com'] },
        { freshness: 'day' },
        { startDate: '2025-01-01' },
        { endDate: '2025-01-31' },
        { maxContentTokens: 500 },
        { country: 'DE' },
      ];
      for (const over of others)
        expect(await b.get(search({ ...base, ...over })), JSON.stringify(over)).toBeUndefined();
    });

    it('keeps its own copy: changing an answer set or got does not change what is cached', async () => {
      const [a, b] = await answers(60_000);
      const q = search();
      const given = answerOf('copy');
      await a.set(q, given);
      scribble(given);
      expect(await a.get(q)).toEqual(answerOf('copy'));
      for (const cache of [a, b, a, b]) {
        const got = (await cache.get(q))!;
        expect(got).toEqual(answerOf('copy'));
        scribble(got);
      }
      expect(await a.get(q)).toEqual(answerOf('copy'));
      expect(await b.get(q)).toEqual(answerOf('copy'));
    });

    it('replaces an answer set again', async () => {
      const [a] = await answers(60_000);
      const q = search();
      await a.set(q, answerOf('first'));
      await a.set(q, answerOf('second'));
      expect(await a.get(q)).toEqual(answerOf('second'));
    });

    it('forgets an answer once its TTL has passed, on every replica', async () => {
      const [a, b] = await answers(SHORT_TTL_MS);
      const q = search();
      await a.set(q, answerOf('ttl'));
      // b reads it first, so a cache that keeps what it read keeps it too.
      expect(await b.get(q)).toEqual(answerOf('ttl'));
      if (advance) {
        advance(SHORT_TTL_MS - 10);
        expect(await b.get(q)).toEqual(answerOf('ttl'));
        advance(20);
      } else {
        await waitFor(30_000, 'the answer to expire', async () => ((await b.get(q)) === undefined ? true : undefined));
      }
      expect(await b.get(q)).toBeUndefined();
      expect(await a.get(q)).toBeUndefined();
    });

    it('caches nothing when turned off (a TTL of 0)', async () => {
      const [a, b] = await answers(0);
      expect(a.enabled).toBe(false);
      expect(b.enabled).toBe(false);
      const q = search();
      await a.set(q, answerOf('off'));
      expect(await a.get(q)).toBeUndefined();
      expect(await b.get(q)).toBeUndefined();
    });
  });
}
