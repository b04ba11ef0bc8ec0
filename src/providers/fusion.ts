import type { ProviderResult } from '../search/search-types.ts';
import { dedupeKey } from '../domain/url-normalize.ts';
import { mergeInto } from './merge-results.ts';

/** RRF's damping constant; 60 is the value of Cormack, Clarke and Büttcher (SIGIR 2009). */
export const RRF_K = 60;

/**
 * The key of a result from a provider whose URLs are exact (the local index: sections of one
 * page differ by their fragment): the page's key plus the fragment, so its sections stay apart
 * while a web result for the page itself (no fragment) still merges with the section-less one.
 */
function exactKey(url: string): string | undefined {
  const key = dedupeKey(url);
  if (key === undefined) return undefined;
  const hash = url.indexOf('#');
  return hash >= 0 && hash < url.length - 1 ? `${key}${url.slice(hash)}` : key;
}

/**
 * Reciprocal rank fusion of several ranked lists (one per provider, in configured order):
 * a page scores Σ 1/(k + rank) over the lists it appears in (rank 1-based), duplicates
 * merge (see mergeInto), and ties keep first-seen order. `exact[i]`: list i's URLs are exact
 * (see exactKey). Scores from different providers
 * are not comparable, ranks are, which is why RRF needs no calibration.
 */
export function reciprocalRankFusion(
  lists: readonly (readonly ProviderResult[])[],
  k = RRF_K,
  exact: readonly boolean[] = [],
): ProviderResult[] {
  const entries = new Map<string, { result: ProviderResult; score: number; order: number }>();
  let order = 0;
  lists.forEach((list, l) => {
    const keyOf = exact[l] ? exactKey : dedupeKey;
    const seenHere = new Set<string>();
    list.forEach((r, i) => {
      const key = keyOf(r.url);
      if (key === undefined || seenHere.has(key)) return;
      seenHere.add(key);
      const e = entries.get(key);
      if (e) {
        e.score += 1 / (k + i + 1);
        mergeInto(e.result, r);
      } else {
        entries.set(key, { result: { ...r }, score: 1 / (k + i + 1), order: order++ });
      }
    });
  });
  return [...entries.values()].sort((a, b) => b.score - a.score || a.order - b.order).map((e) => e.result);
}
