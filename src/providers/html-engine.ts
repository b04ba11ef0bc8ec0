import { DOMParser, type parseHTML } from 'linkedom';
import type { ProviderResult } from '../search/search-types.ts';
import { ProviderError } from './provider.ts';

/**
 * Reading the result page of an engine that serves HTML without a key (DuckDuckGo, Mojeek).
 * Such a page is one of four things, told apart in this order, so that a change of markup
 * is never mistaken for "no results":
 * 1. a block page (the engine's CAPTCHA or "unusual traffic" dialog): `blocked`;
 * 2. a result page: its results (ads and the engine's own boxes left out by the parser);
 * 3. the engine's "no results" page: an empty list;
 * 4. anything else: a parse failure (`malformed`), which `scout providers check`, /admin and
 *    /metrics report as such.
 */

export type HtmlDocument = ReturnType<typeof parseHTML>['document'];
export type HtmlElement = NonNullable<ReturnType<HtmlDocument['querySelector']>>;

/** How one engine's page is read. */
export interface EnginePage {
  /** The engine's own block markers (structural), checked first: a reason, or undefined. */
  blocked(doc: HtmlDocument): string | undefined;
  /** The organic results, in page order. */
  results(doc: HtmlDocument): ProviderResult[];
  /** True when the page says the query found nothing. */
  noResults(doc: HtmlDocument): boolean;
}

/**
 * Words of block pages in general (checked only when no result could be read, since a result
 * about CAPTCHAs may well say "captcha").
 */
const BLOCK_WORDS =
  /\b(captcha|unusual traffic|automated (queries|requests)|are you a (human|robot)|not a robot|bots use|too many requests|access denied|request (has been )?blocked)\b/i;

/**
 * linkedom's DOMParser rather than parseHTML: it builds the same document without parseHTML's
 * window and globals, which took a quarter of the time of reading a DuckDuckGo page (3.4 →
 * 2.6 ms) and over a third of a Mojeek one (1.9 → 1.2 ms).
 */
export function parsePage(html: string): HtmlDocument {
  return new DOMParser().parseFromString(html, 'text/html') as unknown as HtmlDocument;
}

/** An element's text as a reader sees it: white space folded, trimmed. */
export function textOf(el: HtmlElement | null | undefined): string {
  return (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

const blockedError = (provider: string, reason: string): ProviderError =>
  new ProviderError(provider, 'blocked', `blocked (${reason})`);

/** The page's results, or the failure it shows (see the four cases above). */
export function readEnginePage(provider: string, html: string, page: EnginePage): ProviderResult[] {
  const doc = parsePage(html);
  const marker = page.blocked(doc);
  if (marker) throw blockedError(provider, marker);
  const results = page.results(doc);
  if (results.length > 0) return results;
  if (page.noResults(doc)) return [];
  const title = textOf(doc.querySelector('title'));
  const words = `${title} ${textOf(doc.querySelector('body')).slice(0, 4000)}`.match(BLOCK_WORDS);
  if (words) throw blockedError(provider, `the page says "${words[0].toLowerCase()}"`);
  throw new ProviderError(
    provider,
    'malformed',
    'parse failed (no result and no "no results" notice on the page: has the engine changed its markup?)',
    { detail: title ? `page title: ${title.slice(0, 120)}` : 'page without a title' },
  );
}

/** An absolute http(s) URL from an href (relative ones resolved against `base`), else undefined. */
export function absoluteUrl(href: string | null | undefined, base: string): string | undefined {
  if (!href) return undefined;
  try {
    const u = new URL(href, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}
