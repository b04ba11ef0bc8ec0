import { DomainError } from '../domain/errors.ts';
import type { ProviderResult } from '../domain/search-types.ts';
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
export type FetchPageContent = (url: string, signal: AbortSignal) => Promise<PageContent>;

export interface GatherOptions {
  fetchPage: FetchPageContent;
  concurrency: number;
  deadlineMs: number;
  onPageError?: (url: string, error: unknown) => void;
}

export interface GatheredPage {
  /** Main content as markdown, not yet cut to any budget. */
  text: string;
  /** Best passages for the query, in page order (may be empty). */
  passages: string[];
}

function toPage(text: string, query: string): GatheredPage | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : { text: trimmed, passages: bestPassages(trimmed, query) };
}

/**
 * The page text of each result, by index; undefined where none could be had in time.
 * Results that carry their text already (the local index's stored text, an upstream's raw
 * content) are used as they are; the others are fetched, `concurrency` at a time, under one
 * deadline for all of them. A page that fails or is late is left out, never an error.
 */
export async function gatherPages(
  query: string,
  results: readonly ProviderResult[],
  options: GatherOptions,
): Promise<(GatheredPage | undefined)[]> {
  const pages: (GatheredPage | undefined)[] = new Array(results.length).fill(undefined);
  const toFetch = results.flatMap((r, i) => (r.rawContent !== undefined && r.rawContent.trim() !== '' ? [] : [i]));
  const controller = new AbortController();
  let open = true;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new DomainError('timeout', 'the advanced search stage ran out of time for this page'));
      resolve();
    }, options.deadlineMs);
  });

  const fetchOne = async (i: number): Promise<void> => {
    const { url } = results[i];
    try {
      const page = await options.fetchPage(url, controller.signal);
      // Past the deadline the answer has been sent: a late page must not change it.
      if (open) pages[i] = toPage(page.content, query);
    } catch (error) {
      // A failing log hook must not fail the search either.
      if (open) void Promise.resolve().then(() => options.onPageError?.(url, error)).catch(() => undefined);
    }
  };
  // Fetches start first, so the stored texts below are scored while the network works.
  const fetching = forEachLimited(toFetch, options.concurrency, fetchOne, controller.signal);
  results.forEach((r, i) => {
    if (r.rawContent !== undefined && r.rawContent.trim() !== '') pages[i] = toPage(r.rawContent, query);
  });
  try {
    await Promise.race([fetching, expired]);
  } finally {
    open = false;
    clearTimeout(timer);
  }
  return pages.slice();
}
