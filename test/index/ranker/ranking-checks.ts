import { expect } from 'vitest';
import type { LocalHit, LocalSearch } from '../../../src/index/local-index.ts';
import { search } from '../temp-index.ts';
import { defined } from '../../helpers/defined.ts';

/**
 * Ranks must agree: the same urls in the same order, scores equal to 1e-9 (Math.log vs
 * libm), where two scores tie either order (and, at the cut, either document) is right.
 */
export function expectSameRanking(memory: LocalHit[], sql: LocalHit[], label: string): void {
  expect(memory.length, label).toBe(sql.length);
  memory.forEach((m, i) => {
    const s = defined(sql[i], `${label} #${i + 1} of the SQL ranking`);
    expect(Math.abs(m.score - s.score), `${label} #${i + 1} score`).toBeLessThanOrEqual(
      1e-9 * Math.max(1, Math.abs(s.score)),
    );
    if (m.url !== s.url) {
      // A different document here must be a tie with the SQL path's.
      const tied = sql.find((x) => x.url === m.url);
      if (tied)
        expect(Math.abs(tied.score - m.score), `${label} #${i + 1} tie`).toBeLessThanOrEqual(
          1e-9 * Math.max(1, m.score),
        );
      else
        expect(Math.abs(s.score - m.score), `${label} #${i + 1} cut tie`).toBeLessThanOrEqual(
          1e-9 * Math.max(1, m.score),
        );
    }
  });
}

const DOMAINS = ['example.com', 'blog.example.com', 'example.org', 'example.co.uk', 'example.de', 'nowhere.test'];
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'JP'];

export function randomSearch(words: string[], rand: () => number): LocalSearch {
  const pick = <T>(xs: readonly T[]): T => defined(xs[Math.floor(rand() * xs.length)], 'a picked item');
  const n = 1 + Math.floor(rand() * 5);
  // Some queries keep consecutive words, so adjacency phrases (the proximity bonus) match.
  const start = Math.floor(rand() * (words.length - n));
  const text =
    rand() < 0.5 ? words.slice(start, start + n).join(' ') : Array.from({ length: n }, () => pick(words)).join(' ');
  const extra: Partial<LocalSearch> = { limit: 1 + Math.floor(rand() * 20) };
  if (rand() < 0.2) extra.includeDomains = [pick(DOMAINS)];
  if (rand() < 0.2) extra.excludeDomains = [pick(DOMAINS)];
  if (rand() < 0.2) extra.startDate = `20${10 + Math.floor(rand() * 15)}-01-01`;
  if (rand() < 0.1) extra.endDate = `20${15 + Math.floor(rand() * 10)}-06-30`;
  if (rand() < 0.2) extra.country = pick(COUNTRIES);
  if (rand() < 0.1) extra.offset = Math.floor(rand() * 10);
  return search(text, extra);
}
