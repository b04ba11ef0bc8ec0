import { AsyncLocalStorage } from 'node:async_hooks';
import type { ExtractedDocument, ExtractInput } from '../../extract/extract-document.ts';
import type { ExtractRun } from '../../fetch/extract-task.ts';
import type { PageLinks } from '../../extract/page-links.ts';

/**
 * Lets a crawl read the links of the raw HTML the fetch pipeline downloaded, without a
 * second request and without changing the pipeline: the `extract` handed to
 * createFetchService is wrapped, and for fetches inside `capture` it asks the extraction
 * (the worker pool, src/fetch/extract-pool.ts) for the page's links too, so the page is
 * parsed in a worker and never on the main thread. Which fetch a body belongs to is carried
 * by AsyncLocalStorage, so two fetches in flight (even of the same URL) never mix their
 * links. Fetches outside `capture` (robots.txt) pass through untouched.
 */

type Extract = (input: ExtractInput, signal?: AbortSignal) => Promise<ExtractedDocument>;

export interface LinkCapture {
  /** The extract to give createFetchService. */
  extract: Extract;
  /** Runs `fetch` and returns its result with the links of the HTML page it extracted (undefined for other types). */
  capture<T>(fetch: () => Promise<T>): Promise<{ result: T; html?: PageLinks }>;
}

export function createLinkCapture(run: ExtractRun): LinkCapture {
  const slot = new AsyncLocalStorage<{ html?: PageLinks }>();
  return {
    async extract(input, signal) {
      const store = slot.getStore();
      const { doc, links } = await run({ ...input, links: store !== undefined }, signal);
      if (store !== undefined && links !== undefined) store.html = links;
      return doc;
    },
    async capture(fetch) {
      const store: { html?: PageLinks } = {};
      const result = await slot.run(store, fetch);
      return store.html === undefined ? { result } : { result, html: store.html };
    },
  };
}
