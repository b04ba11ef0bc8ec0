import { AsyncLocalStorage } from 'node:async_hooks';
import type { DomainError } from '../domain/errors.ts';
import type { ExtractedDocument, ExtractInput } from '../extract/extract-document.ts';
import type { ExtractRun } from '../fetch/extract-task.ts';
import type { PageLinks } from '../extract/page-links.ts';
import { refusedAtHeaders } from '../fetch/refused-at-headers.ts';

/**
 * How a site walk (the index crawl, POST /v1/map) asks more of one fetch than /v1/fetch does,
 * without a second pipeline: the fetch still goes through every layer (address policy on
 * every hop, fetch capacity, per-host gate, byte budget, deadline), and the hooks below,
 * handed to createFetchService, change what they do only for fetches run inside `capture`.
 * Which fetch a hook call belongs to is carried by AsyncLocalStorage, so two fetches in flight
 * (even of the same URL) never mix. Fetches outside `capture` pass through untouched.
 *
 * - `links`: the extraction (the worker pool, src/fetch/extract-pool.ts) also reads the raw
 *   HTML's links, so the page is parsed in a worker and never on the main thread;
 * - `body`: the raw body is what is wanted (robots.txt, a sitemap, gzipped or not): it is not
 *   extracted, and no content type is refused at the headers (sitemaps come as
 *   application/gzip); the byte caps still bound it;
 * - `redirect`: each redirect hop is shown to the walk before it is followed, which may refuse
 *   it (a hop off the site, or to an origin whose robots.txt is not read yet).
 */

type Extract = (input: ExtractInput, signal?: AbortSignal) => Promise<ExtractedDocument>;

/** What the walk wants of one fetch. */
export interface CaptureOptions {
  want: 'links' | 'body';
  /** Throws (a DomainError) to refuse following a redirect to `next`. */
  redirect?: (next: URL) => void;
}

export interface RawBody {
  body: Uint8Array;
  contentType: string | null;
}

interface Slot {
  options: CaptureOptions;
  html?: PageLinks;
  raw?: RawBody;
}

export interface FetchCapture {
  /** The extract to give createFetchService. */
  extract: Extract;
  /** createFetchService's `http.refuseType`: the usual refusals, none for a body capture. */
  refuseType(contentType: string | null): DomainError | undefined;
  /** createFetchService's `http.redirectCheck`: the capture's check of the fetch in progress, if any. */
  redirectCheck(): ((next: URL) => void) | undefined;
  /**
   * Runs `fetch` as `options` say and returns its result with the links of the HTML page it
   * extracted (links; undefined for other types) or the raw body it read (body).
   */
  capture<T>(
    fetch: () => Promise<T>,
    options?: CaptureOptions,
  ): Promise<{ result: T; html?: PageLinks; raw?: RawBody }>;
}

/** What a body capture's extraction answers in place of a page: nothing was extracted. */
const NOT_EXTRACTED: ExtractedDocument = { title: '', markdown: '', contentType: null };

export function createFetchCapture(run: ExtractRun): FetchCapture {
  const slot = new AsyncLocalStorage<Slot>();
  return {
    async extract(input, signal) {
      const store = slot.getStore();
      if (store?.options.want === 'body') {
        store.raw = { body: input.body, contentType: input.contentType };
        return NOT_EXTRACTED;
      }
      const { doc, links } = await run({ ...input, links: store !== undefined }, signal);
      if (store !== undefined && links !== undefined) store.html = links;
      return doc;
    },
    refuseType: (contentType) => (slot.getStore()?.options.want === 'body' ? undefined : refusedAtHeaders(contentType)),
    redirectCheck: () => slot.getStore()?.options.redirect,
    async capture(fetch, options = { want: 'links' }) {
      const store: Slot = { options };
      const result = await slot.run(store, fetch);
      return {
        result,
        ...(store.html === undefined ? {} : { html: store.html }),
        ...(store.raw === undefined ? {} : { raw: store.raw }),
      };
    },
  };
}
