import { markdownLinks, type PageLinks } from '../extract/page-links.ts';
import type { FetchResponse } from '../schemas/fetch.ts';
import type { FetchCapture } from './fetch-capture.ts';

/**
 * The two requests of a site walk over one fetch pipeline (the server's fetch capacity, or
 * the CLI's own service), through its fetch capture (fetch-capture.ts): a page with the links
 * of its raw HTML, and a file's raw bytes (robots.txt, a sitemap). Both are fetches like any
 * other: the address policy on every hop, the fetch deadline, the capacity's fair share of
 * `caller`, the per-host gate, the byte caps.
 */

export interface WalkFetch {
  /** Aborts the fetch (the walk's deadline, the caller gone). */
  signal: AbortSignal;
  /** Shown each redirect target before it is followed; throws to refuse it. */
  redirect?: (next: URL) => void;
}

export interface WalkedPage {
  finalUrl: string;
  title: string;
  links: PageLinks;
  /** The page's markdown as the same fetch extracted it (up to PAGE_CHARS): a crawl returns it, a map does not. */
  content: string;
  /** The page is longer than `content` (PAGE_CHARS, a byte cap or an extraction bound cut it). */
  truncated: boolean;
  meta: FetchResponse['meta'];
}

export interface WalkedFile {
  finalUrl: string;
  body: Uint8Array;
}

export interface SiteFetch {
  fetchPage(url: string, o: WalkFetch): Promise<WalkedPage>;
  fetchBody(url: string, o: WalkFetch): Promise<WalkedFile>;
}

/** One fetch of the pipeline, as the fetch capacity (or createFetchService) offers it. */
export type PipelineFetch = (req: {
  url: string;
  maxChars: number;
  signal?: AbortSignal | undefined;
  caller?: string | undefined;
}) => Promise<{ finalUrl: string; title: string; content: string; truncated: boolean; meta: FetchResponse['meta'] }>;

/**
 * Characters of a page's markdown kept (/v1/fetch's largest max_chars): what a crawl returns
 * windows of (as POST /v1/extract reads a page), and what a non-HTML page's links are read from.
 */
const PAGE_CHARS = 200_000;

export function createSiteFetch(fetch: PipelineFetch, capture: FetchCapture, caller?: string): SiteFetch {
  return {
    async fetchPage(url, { signal, redirect }) {
      const { result, html } = await capture.capture(() => fetch({ url, maxChars: PAGE_CHARS, signal, caller }), {
        want: 'links',
        ...(redirect === undefined ? {} : { redirect }),
      });
      return {
        finalUrl: result.finalUrl,
        title: result.title,
        links: html ?? markdownLinks(result.content, result.finalUrl),
        content: result.content,
        truncated: result.truncated,
        meta: result.meta,
      };
    },
    async fetchBody(url, { signal, redirect }) {
      const { result, raw } = await capture.capture(() => fetch({ url, maxChars: PAGE_CHARS, signal, caller }), {
        want: 'body',
        ...(redirect === undefined ? {} : { redirect }),
      });
      // Scout's own docs are answered without a body to capture: their text is the file.
      return { finalUrl: result.finalUrl, body: raw?.body ?? new TextEncoder().encode(result.content) };
    },
  };
}
