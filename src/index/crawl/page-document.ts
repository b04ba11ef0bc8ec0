import type { FetchOutcome } from '../../fetch/fetch-service.ts';
import type { IndexDocument } from '../index-document.ts';

/** Characters of a page kept in the index: the most /v1/fetch returns (FETCH_LIMITS.maxChars.max). */
export const PAGE_MAX_CHARS = 200_000;

/**
 * A fetched page as an index document: stored under its final URL (after redirects), so
 * re-adding a page replaces it. Pages without a title (plain text, some PDFs) are titled
 * by their URL, because the index requires a title; pages without text are refused.
 */
export function pageDocument(page: FetchOutcome): IndexDocument | { reason: string } {
  const content = page.content.trim();
  if (content === '') return { reason: 'the page has no text to index' };
  const title = page.title.trim() || page.finalUrl;
  return { url: page.finalUrl, title, content };
}
