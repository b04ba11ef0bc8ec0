import { createFetchService, type FetchOutcome } from '../../fetch/fetch-service.ts';
import type { Resolver } from '../../fetch/url-guard.ts';
import { extractInProcess, type ExtractRun } from '../../fetch/extract-task.ts';
import type { FetchedPage } from './crawl-site.ts';
import { createFetchCapture } from '../../site/fetch-capture.ts';
import { PAGE_MAX_CHARS } from './page-document.ts';
import { markdownLinks } from '../../extract/page-links.ts';
import { ROBOTS_MAX_CHARS } from '../../site/robots-rules.ts';

/**
 * The fetch side of `index add` and `index crawl`: Scout's /v1/fetch pipeline (refused
 * addresses, pinned DNS, re-validated redirects, one deadline, byte caps), with the raw
 * HTML's links captured on the way for the crawl.
 */

export interface PageFetcherOptions {
  allowCidrs: string[];
  timeoutMs: number;
  resolver?: Resolver;
  /** Extraction: the worker pool's `run` (the CLI passes it); in-process when absent (tests). */
  extract?: ExtractRun;
}

export interface PageFetcher {
  fetchOutcome(url: string): Promise<FetchOutcome>;
  fetchPage(url: string): Promise<FetchedPage>;
  fetchText(url: string): Promise<string>;
  close(): Promise<void>;
}

export function createPageFetcher(options: PageFetcherOptions): PageFetcher {
  const { extract = extractInProcess, ...rest } = options;
  const capture = createFetchCapture(extract);
  const service = createFetchService({ ...rest, extract: capture.extract });
  return {
    fetchOutcome: (url) => service.fetch({ url, maxChars: PAGE_MAX_CHARS }),
    async fetchPage(url) {
      const { result, html } = await capture.capture(() => service.fetch({ url, maxChars: PAGE_MAX_CHARS }));
      return { outcome: result, links: html ?? markdownLinks(result.content, result.finalUrl) };
    },
    fetchText: async (url) => (await service.fetch({ url, maxChars: ROBOTS_MAX_CHARS })).content,
    close: () => service.close(),
  };
}
