import { AsyncLocalStorage } from 'node:async_hooks';
import { decodeBody } from '../../extract/charset.ts';
import type { ExtractedDocument, ExtractInput } from '../../extract/extract-document.ts';
import { parseContentType } from '../../extract/media-type.ts';
import { htmlLinks, type PageLinks } from './page-links.ts';

/**
 * Lets a crawl read the raw HTML the fetch pipeline downloaded, without a second request
 * and without changing the pipeline: the `extract` handed to createFetchService is wrapped,
 * and the wrapper reads the links of HTML bodies it extracts. Which fetch a body belongs to
 * is carried by AsyncLocalStorage, so two fetches in flight (even of the same URL) never mix
 * their links. Fetches outside `capture` (robots.txt) pass through untouched.
 */

type Extract = (input: ExtractInput) => Promise<ExtractedDocument>;

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

export interface LinkCapture {
  /** The extract to give createFetchService. */
  extract: Extract;
  /** Runs `fetch` and returns its result with the links of the HTML page it extracted (undefined for other types). */
  capture<T>(fetch: () => Promise<T>): Promise<{ result: T; html?: PageLinks }>;
}

export function createLinkCapture(extract: Extract): LinkCapture {
  const slot = new AsyncLocalStorage<{ html?: PageLinks }>();
  return {
    async extract(input) {
      const doc = await extract(input);
      const store = slot.getStore();
      if (store !== undefined && doc.contentType !== null && HTML_TYPES.has(doc.contentType)) {
        const charset = parseContentType(input.contentType)?.charset ?? null;
        store.html = htmlLinks(decodeBody(input.body, charset, true), input.url);
      }
      return doc;
    },
    async capture(fetch) {
      const store: { html?: PageLinks } = {};
      const result = await slot.run(store, fetch);
      return { result, html: store.html };
    },
  };
}
