import type { ExtractPage } from '../schemas/extract.ts';
import type { FetchResponse } from '../schemas/fetch.ts';
import { type PageWindow, pageWindow, type WindowRequest } from './page-window.ts';

/**
 * Reading a batch of pages: the one piece of code behind POST /v1/extract, MCP fetch_pages
 * and Tavily's /extract. Every URL is asked for at once; the fetch capacity below decides
 * how many run (its fair share per caller, the per-host limit, the byte ceiling, each page's
 * own deadline counted from its arrival), so a slow page ends as its own timeout while the
 * others are answered. One outcome per URL, in their order; a failed page fails only itself.
 */

/** One URL's outcome: what was read, or why it could not be. */
export type PageOutcome<T> = { url: string; page: T } | { url: string; error: unknown };

/** Reads one page whole (as far as Scout reads one); throws a DomainError for a page that cannot be read. */
export type ReadPage = (url: string) => Promise<FetchResponse>;

/**
 * Each URL read with `read`, all at once. `onUnexpected` hears of a failure that is not a
 * DomainError (a bug), which still only fails its own page.
 */
export async function readPages<T>(
  urls: readonly string[],
  read: (url: string) => Promise<T>,
  onUnexpected?: (error: unknown) => void,
): Promise<PageOutcome<T>[]> {
  return Promise.all(
    urls.map(async (url): Promise<PageOutcome<T>> => {
      try {
        return { url, page: await read(url) };
      } catch (error) {
        onUnexpected?.(error);
        return { url, error };
      }
    }),
  );
}

/**
 * Each page read whole and cut to its window (or its passages) as soon as it arrives, so the
 * batch holds each page's window, not its whole content, until the answer goes: with 20 URLs
 * at most the fetch capacity's running pages are whole at once.
 */
export function readBatch(
  urls: readonly string[],
  read: ReadPage,
  w: WindowRequest,
  onUnexpected?: (error: unknown) => void,
): Promise<PageOutcome<PageWindow>[]> {
  return readPages(urls, async (url) => pageWindow(url, await read(url), w), onUnexpected);
}

export type { ExtractPage, PageWindow, WindowRequest };
