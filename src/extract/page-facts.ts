import { parseHTML } from 'linkedom';
import { documentBase, resolveUrl } from './html/absolute-urls.ts';
import { markdownLinks } from './page-links.ts';
import { collapseSpace } from './text-scan.ts';

/**
 * What a scrape reports about a page beside its markdown (the Firecrawl shape's `links` and
 * `metadata`): every link of the page, absolute and once each, and the page's own
 * description and language. Unlike a crawl's links (page-links.ts), nofollow links are
 * kept: a scrape reports what the page links to, it does not follow anything.
 */
export interface PageFacts {
  /** Absolute http(s) URLs, first occurrence order, no duplicates. */
  links: string[];
  /** `<meta name="description">`, else `og:description`, when not blank. */
  description?: string;
  /** `<html lang>`, when set. */
  language?: string;
}

/** Links kept at most: a page of 200,000 anchors must not make a 20 MB answer. */
export const FACT_LINKS_MAX = 5000;
/** Characters of a description kept at most. */
const DESCRIPTION_MAX = 2000;

function uniqueWeb(urls: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const u of urls) {
    if (out.size >= FACT_LINKS_MAX) break;
    if (/^https?:/i.test(u)) out.add(u);
  }
  return [...out];
}

function metaContent(doc: Document, names: string[]): string | undefined {
  for (const meta of Array.from(doc.getElementsByTagName('meta'))) {
    const key = (meta.getAttribute('name') ?? meta.getAttribute('property') ?? '').trim().toLowerCase();
    if (!names.includes(key)) continue;
    const v = collapseSpace(meta.getAttribute('content') ?? '');
    if (v !== '') return v.slice(0, DESCRIPTION_MAX);
  }
  return undefined;
}

/** The facts of an HTML page, read from its raw markup (already bounded by the caller). */
export function htmlFacts(html: string, pageUrl: string): PageFacts {
  const doc = parseHTML(html).document as unknown as Document;
  const base = documentBase(doc, pageUrl);
  const hrefs: string[] = [];
  for (const el of Array.from(doc.querySelectorAll('a[href], area[href]'))) {
    const abs = resolveUrl(el.getAttribute('href') ?? '', base);
    // The fragment names a place in a page, not another page: one page, one link.
    if (abs !== null) hrefs.push(abs.replace(/#.*$/, ''));
  }
  const out: PageFacts = { links: uniqueWeb(hrefs) };
  const description = metaContent(doc, ['description']) ?? metaContent(doc, ['og:description']);
  if (description !== undefined) out.description = description;
  const lang = collapseSpace(doc.documentElement?.getAttribute('lang') ?? '');
  if (lang !== '') out.language = lang.slice(0, 35);
  return out;
}

/** The facts of a page that is not HTML: its links as its markdown holds them. */
export function markdownFacts(markdown: string, pageUrl: string): PageFacts {
  return { links: uniqueWeb(markdownLinks(markdown, pageUrl).links.map((u) => u.replace(/#.*$/, ''))) };
}
