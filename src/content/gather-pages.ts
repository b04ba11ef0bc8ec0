import { setImmediate as nextTurn } from 'node:timers/promises';
import { DomainError } from '../domain/errors.ts';
import type { ProviderResult } from '../search/search-types.ts';
import { forEachLimited } from './concurrency.ts';
import { bestPassages } from './passages.ts';

/** One page's main content as markdown (the fetch pipeline's `content`). */
export interface PageContent {
  content: string;
}

/**
 * Fetches one page through Scout's fetch pipeline (same safety rules as /v1/fetch). Should
 * stop when `signal` aborts: the stage's deadline has passed and nobody waits for the answer.
 */
export type FetchPageContent = (url: string, signal: AbortSignal, caller?: string) => Promise<PageContent>;

export interface GatherOptions {
  fetchPage: FetchPageContent;
  concurrency: number;
  deadlineMs: number;
  onPageError?: (url: string, error: unknown) => void;
  /** Who the search is for: its fetches share the fetch capacity as that caller's. */
  caller?: string | undefined;
}

export interface GatheredPage {
  /** Main content as markdown, not yet cut to any budget. */
  text: string;
  /** Best passages for the query, in page order (may be empty). */
  passages: string[];
}

function toPage(text: string, query: string, score = true): GatheredPage | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return { text: trimmed, passages: score ? bestPassages(trimmed, query) : [] };
}

const hasText = (r: ProviderResult): boolean => r.rawContent !== undefined && r.rawContent.trim() !== '';

/**
 * The page text of each result, by index; undefined where none could be had in time.
 * Results that carry their text already (the local index's stored text, an upstream's raw
 * content) are used as they are; the others are fetched, `concurrency` at a time, under one
 * deadline for all of them. A page that fails or is late is left out, never an error.
 * Scoring runs on the event loop, so stored texts are scored one per turn (fetches and the
 * deadline timer get their turns in between); past the deadline a stored text is kept
 * unscored, without passages.
 */
export async function gatherPages(
  query: string,
  results: readonly ProviderResult[],
  options: GatherOptions,
): Promise<(GatheredPage | undefined)[]> {
  const pages: (GatheredPage | undefined)[] = new Array(results.length).fill(undefined);
  const toFetch = results.flatMap((r, i) => (hasText(r) ? [] : [{ url: r.url, i }]));
  const controller = new AbortController();
  let open = true;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new DomainError('timeout', 'the advanced search stage ran out of time for this page'));
      resolve();
    }, options.deadlineMs);
  });

  const fetchOne = async ({ url, i }: { url: string; i: number }): Promise<void> => {
    try {
      const page = await options.fetchPage(url, controller.signal, options.caller);
      // Past the deadline the answer has been sent: a late page must not change it.
      if (open) pages[i] = toPage(page.content, query);
    } catch (error) {
      // A failing log hook must not fail the search either.
      if (open)
        void Promise.resolve()
          .then(() => options.onPageError?.(url, error))
          .catch(() => undefined);
    }
  };
  // Fetches start first, so the stored texts are scored while the network works.
  const fetching = forEachLimited(toFetch, options.concurrency, fetchOne, controller.signal);
  const scoring = (async () => {
    for (const [i, r] of results.entries()) {
      if (!hasText(r)) continue;
      pages[i] = toPage(r.rawContent as string, query, open);
      if (open) await nextTurn();
    }
  })();
  try {
    await Promise.race([Promise.all([fetching, scoring]), expired]);
  } finally {
    open = false;
    clearTimeout(timer);
  }
  // Stored texts the deadline left unscored are still kept (their text costs nothing).
  await scoring;
  return pages.slice();
}
