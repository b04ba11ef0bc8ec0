import { DOMParser, parseHTML } from 'linkedom';
import { resolveUrl } from './html/absolute-urls.ts';
import { boundMarkup } from './markup-bounds.ts';
import { limitNesting } from './markup-nesting.ts';

export interface FeedExtract {
  title: string;
  markdown: string;
  /** Cut at the parser's input bounds (markup-bounds.ts) or at MAX_FEED_ITEMS. */
  truncated: boolean;
}

const MAX_SUMMARY_CHARS = 280;

/**
 * Items listed at most. Each costs a parse of its summary's HTML (about 0.3 ms); real
 * feeds carry 10 to a few hundred items, podcast archives a few thousand.
 */
export const MAX_FEED_ITEMS = 2_000;

/** Tag name without namespace prefix, lower-case (linkedom keeps `dc:date` as the local name). */
function local(el: Element): string {
  const name = el.tagName.toLowerCase();
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function childrenNamed(el: Element, ...names: string[]): Element[] {
  return Array.from(el.children).filter((c) => names.includes(local(c)));
}

function childText(el: Element, ...names: string[]): string {
  for (const name of names) {
    const text = childrenNamed(el, name)[0]?.textContent?.replace(/\s+/g, ' ').trim();
    if (text) return text;
  }
  return '';
}

/** Atom links are attributes; RSS links are text. Prefers rel="alternate" (or no rel). */
function itemLink(item: Element): string {
  const links = childrenNamed(item, 'link');
  const atom = links.find((l) => l.hasAttribute('href') && ['', 'alternate'].includes(l.getAttribute('rel') ?? ''));
  if (atom) return atom.getAttribute('href') ?? '';
  return links.map((l) => l.textContent?.trim() ?? '').find((t) => t) ?? childText(item, 'guid');
}

/** Summaries are HTML (escaped or CDATA): rendered to one line of plain text. */
function plainSummary(html: string): string {
  if (html === '') return '';
  const text = /[<&]/.test(html)
    ? (parseHTML(limitNesting(`<!doctype html><html><body>${html}</body></html>`, { xml: false })).document.body
        .textContent ?? '')
    : html;
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_SUMMARY_CHARS ? flat : `${flat.slice(0, MAX_SUMMARY_CHARS).replace(/\s+\S*$/, '')}…`;
}

function isoDate(raw: string): string {
  if (raw === '') return '';
  const t = Date.parse(raw);
  return Number.isNaN(t) ? raw : new Date(t).toISOString().slice(0, 10);
}

const escapeText = (s: string): string => s.replace(/([\\[\]*_`])/g, '\\$1');

function itemMarkdown(item: Element, base: string): string {
  const title = childText(item, 'title');
  const href = resolveUrl(itemLink(item), base);
  const date = isoDate(childText(item, 'pubdate', 'published', 'updated', 'date', 'issued', 'modified'));
  const summary = plainSummary(childText(item, 'summary', 'description', 'encoded', 'content'));
  const label = escapeText(title || href || 'untitled');
  const head = href ? `- [${label}](${href})` : `- ${label}`;
  const dated = date ? `${head} (${date})` : head;
  return summary && summary !== title ? `${dated}\n  ${escapeText(summary)}` : dated;
}

/**
 * RSS 2.0, RSS 1.0 (RDF) and Atom to markdown: the feed's title as title, then one list
 * item per entry with its title linked, its date (YYYY-MM-DD when parseable) and a
 * one-line summary.
 */
export function feedToMarkdown(xml: string, pageUrl: string): FeedExtract {
  const bounded = boundMarkup(xml);
  const doc = new DOMParser().parseFromString(
    limitNesting(bounded.markup, { xml: true }),
    'text/xml',
  ) as unknown as Document;
  const root = doc.documentElement;
  if (!root) return { title: '', markdown: '', truncated: bounded.truncated };
  const channel = childrenNamed(root, 'channel')[0] ?? root;
  const title = childText(channel, 'title');
  const items = [...childrenNamed(channel, 'item', 'entry'), ...(channel === root ? [] : childrenNamed(root, 'item'))];
  const description = plainSummary(childText(channel, 'description', 'subtitle'));
  const lines = items.slice(0, MAX_FEED_ITEMS).map((item) => itemMarkdown(item, pageUrl));
  const parts = [description ? escapeText(description) : '', lines.join('\n')].filter((p) => p !== '');
  return { title, markdown: parts.join('\n\n'), truncated: bounded.truncated || items.length > MAX_FEED_ITEMS };
}
