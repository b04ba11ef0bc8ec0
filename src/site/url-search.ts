import { queryTerms, terms } from '../content/text-terms.ts';

/**
 * The `search` of a site map: keeps the URLs whose words match the query's and ranks them by
 * how many of its words they match. A URL's words are those of its path (percent-decoded;
 * `-`, `_`, `/` and `.` split words) and of its page title when the map read the page; the
 * host is left out, being the same site for all. Words are compared as passage ranking
 * compares them (src/content/text-terms.ts: lower case, accents folded, a light stemmer, stop
 * words dropped), and a query word also matches a longer word it begins (`auth` matches
 * `authentication`) when it has at least PREFIX_MIN characters.
 */

const PREFIX_MIN = 3;

export interface UrlSearch {
  /** Query words matched by the URL (0: left out). */
  score(url: string, title: string | null): number;
}

function pathWords(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return '';
  }
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape: the words around it still count.
  }
  return path.replace(/[-_/.+]+/g, ' ');
}

export function urlSearch(query: string): UrlSearch {
  const wanted = queryTerms(query);
  return {
    score(url, title) {
      const words = new Set(terms(`${pathWords(url)} ${title ?? ''}`));
      let matched = 0;
      for (const w of wanted) {
        if (words.has(w)) matched += 1;
        else if (w.length >= PREFIX_MIN && [...words].some((x) => x.startsWith(w))) matched += 1;
      }
      return matched;
    },
  };
}

/** `items` with a positive score, best first; equal scores keep their order. */
export function rankBySearch<T>(items: readonly T[], score: (item: T) => number): T[] {
  return items
    .map((item, i) => ({ item, i, s: score(item) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.item);
}
