import { DomainError } from '../domain/errors.ts';
import type { ExtractPage, ExtractPassage } from '../schemas/extract.ts';
import type { FetchResponse } from '../schemas/fetch.ts';
import { partLength } from './part-length.ts';
import { rankPassages } from './passage-spans.ts';

/**
 * One page of POST /v1/extract (docs/api.md "POST /v1/extract"): the page read whole (up to
 * 200000 characters), then its window from `startIndex`, at most `maxChars` long and ending
 * at a paragraph or line break near its end when there is one. The window is an exact slice,
 * so windows laid end to end (each next_index sent back as start_index) give the page back.
 * With a query the window is not returned: its passages most relevant to the query are, in
 * page order, each an exact slice of the content with its offset.
 */

export interface WindowRequest {
  startIndex: number;
  maxChars: number;
  query?: string | undefined;
  /** Passages kept per page with a query. */
  maxPassages: number;
}

export interface PageWindow {
  entry: ExtractPage;
  /** With a query: the rank of each of entry.passages (0 = the best), for a caller that keeps fewer. */
  ranks: number[];
  /** With a query: whether only white space lies between passage i - 1 and passage i. */
  touches: boolean[];
}

/** Between passages: a blank line when only white space lies between them in the page, else a line "[…]". */
const GAP = '\n\n[…]\n\n';

/** The passages as one text, in page order; `touches[i]`: only white space lies between passage i - 1 and i. */
function joinPassages(passages: readonly ExtractPassage[], touches: (i: number) => boolean): string {
  return passages.map((p, i) => (i === 0 ? p.text : `${touches(i) ? '\n\n' : GAP}${p.text}`)).join('');
}

/** `w`'s entry with only its passages whose rank is below `keep`, content rebuilt. */
export function keepPassages(w: PageWindow, keep: number): ExtractPage {
  const passages = w.entry.passages;
  if (passages === undefined) return w.entry;
  const kept = passages.flatMap((p, i) => ((w.ranks[i] ?? 0) < keep ? [{ p, i }] : []));
  const content = joinPassages(
    kept.map((k) => k.p),
    (j) => {
      const here = kept[j]?.i ?? 0;
      return kept[j - 1]?.i === here - 1 && w.touches[here] === true;
    },
  );
  return { ...w.entry, passages: kept.map((k) => k.p), content, chars: content.length };
}

/** What a window is cut from: a page as /v1/fetch reads it (a crawl's page has no envelope). */
export type WindowSource = Pick<FetchResponse, 'content' | 'final_url' | 'title' | 'truncated' | 'meta'>;

export function pageWindow(url: string, page: WindowSource, w: WindowRequest): PageWindow {
  const full = page.content;
  const start = w.startIndex;
  if (start > 0 && start >= full.length) {
    throw new DomainError(
      'invalid',
      `start_index ${start} is past the end of the page content (${full.length} characters); the page has been read to its end`,
    );
  }
  const window = full.slice(start, start + w.maxChars + 1);
  const len = partLength(window, w.maxChars);
  const end = start + len;
  const next = end < full.length ? end : null;
  const base = {
    url,
    ok: true as const,
    final_url: page.final_url,
    title: page.title,
    start_index: start,
    total_chars: full.length,
    next_index: next,
    truncated: next !== null || page.truncated,
    meta: page.meta,
  };
  if (w.query === undefined) {
    const content = window.slice(0, len);
    return { entry: { ...base, content, chars: content.length }, ranks: [], touches: [] };
  }
  const windowText = window.slice(0, len);
  const chosen = rankPassages(windowText, w.query)
    .slice(0, w.maxPassages)
    .sort((a, b) => a.start - b.start);
  const passages = chosen.map((p) => ({ text: p.text, start_index: start + p.start, chars: p.text.length }));
  const touches = chosen.map((p, i) => i > 0 && windowText.slice(chosen[i - 1]?.end ?? 0, p.start).trim() === '');
  const content = joinPassages(passages, (i) => touches[i] === true);
  return { entry: { ...base, content, chars: content.length, passages }, ranks: chosen.map((p) => p.rank), touches };
}
