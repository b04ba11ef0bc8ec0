import type { FetchOutcome } from '../../fetch/fetch-service.ts';
import type { IndexDocument } from '../index-document.ts';
import type { HostPacer } from '../../site/host-pacer.ts';
import { pageDocument } from './page-document.ts';

/**
 * `scout index add`: fetch each URL once through the safe pipeline and index it. The
 * operator named these pages, so, like `scout fetch`, robots.txt is not consulted; requests
 * are still paced (2 in flight, 1 per host, the per-host delay).
 */

export interface AddDeps {
  fetchPage(url: string): Promise<FetchOutcome>;
  pacer: HostPacer;
  /** Writes the page's document (a local index write: synchronous on SQLite, not on PostgreSQL). */
  store(doc: IndexDocument): unknown;
  onAdded?(url: string, title: string): void;
  onSkipped?(url: string, reason: string): void;
}

export interface AddSummary {
  added: number;
  skipped: number;
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
};

export async function addPages(urls: string[], deps: AddDeps): Promise<AddSummary> {
  const summary: AddSummary = { added: 0, skipped: 0 };
  const skip = (url: string, reason: string): void => {
    summary.skipped += 1;
    deps.onSkipped?.(url, reason);
  };
  await Promise.all(
    urls.map(async (url) => {
      try {
        const doc = pageDocument(await deps.pacer.run(hostOf(url), () => deps.fetchPage(url)));
        if ('reason' in doc) return skip(url, doc.reason);
        await deps.store(doc);
        summary.added += 1;
        deps.onAdded?.(doc.url, doc.title);
      } catch (e) {
        skip(url, (e as Error).message);
      }
    }),
  );
  return summary;
}
