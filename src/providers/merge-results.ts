import type { ProviderResult } from '../search/search-types.ts';
import { cleanUrl, dedupeKey } from '../domain/url-normalize.ts';

/**
 * Duplicate handling shared by failover and fusion: results whose URLs are the same page
 * (see dedupeKey) become one, the first keeping its place and taking what it lacks
 * (date, favicon, snippets) from the later ones.
 */

/** The first result wins; it only gains the fields it did not have. */
export function mergeInto(target: ProviderResult, other: ProviderResult): void {
  if (!target.content && other.content) target.content = other.content;
  if (!target.title && other.title) target.title = other.title;
  if (!target.publishedDate && other.publishedDate) target.publishedDate = other.publishedDate;
  if (!target.favicon && other.favicon) target.favicon = other.favicon;
  if (target.rawContent === undefined && other.rawContent !== undefined) target.rawContent = other.rawContent;
  if (other.extraSnippets?.length) {
    const seen = new Set(target.extraSnippets ?? []);
    const extra = other.extraSnippets.filter((s) => s !== target.content && !seen.has(s));
    if (extra.length) target.extraSnippets = [...(target.extraSnippets ?? []), ...extra];
  }
}

/**
 * Cleans each URL (tracking parameters, text fragments, host case), drops results without
 * an http(s) URL, gives an untitled result its URL as title, and returns copies, so
 * callers may merge into them freely.
 */
export function cleanResults(results: readonly ProviderResult[]): ProviderResult[] {
  const out: ProviderResult[] = [];
  for (const r of results) {
    const url = typeof r.url === 'string' ? cleanUrl(r.url) : undefined;
    if (url) out.push({ ...r, url, title: r.title || url });
  }
  return out;
}

/** One result per page, in first-seen order. */
export function dedupeResults(results: readonly ProviderResult[]): ProviderResult[] {
  const byKey = new Map<string, ProviderResult>();
  for (const r of results) {
    const key = dedupeKey(r.url);
    if (key === undefined) continue;
    const first = byKey.get(key);
    if (first) mergeInto(first, r);
    else byKey.set(key, r);
  }
  return [...byKey.values()];
}
