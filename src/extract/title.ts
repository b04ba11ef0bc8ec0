import { getDomainWithoutSuffix } from 'tldts';

/** Separators sites put between a headline and their name. */
const SEPARATOR = /\s+(\||-|–|—|::|·|•|»)\s+/;
/** With a hyphen, "Part 2" or "Review" is as likely as a site name: only a matching name goes. */
const SHORT_OK = new Set(['|', '—', '–', '::', '·', '•', '»']);
const MAX_SHORT_WORDS = 3;
const MAX_SHORT_CHARS = 30;

const squash = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

function namesSite(segment: string, siteName: string | null, domainLabel: string | null): boolean {
  const s = squash(segment);
  if (s.length === 0) return false;
  if (siteName && squash(siteName) === s) return true;
  return domainLabel !== null && domainLabel.length > 2 && (s.includes(domainLabel) || domainLabel.includes(s));
}

function isShort(segment: string): boolean {
  return segment.length <= MAX_SHORT_CHARS && segment.split(/\s+/).length <= MAX_SHORT_WORDS;
}

/**
 * Removes a trailing (or leading) site name: "Headline | Site", "Headline - example.com",
 * "Site — Headline". A tail goes when what precedes it is the page's h1, when it matches
 * og:site_name or the domain, or, with an unambiguous separator, when it is short and
 * follows a longer headline.
 */
export function cleanTitle(
  raw: string,
  siteName: string | null,
  pageUrl: string,
  heading: string | null = null,
): string {
  const title = raw.replace(/\s+/g, ' ').trim();
  // Texts with the separators between them: [text, separator, text, …].
  const parts = title.split(SEPARATOR);
  const [first] = parts;
  const [sep, last] = parts.slice(-2);
  if (parts.length < 3 || first === undefined || sep === undefined || last === undefined) return title;
  const domainLabel = (() => {
    const label = getDomainWithoutSuffix(pageUrl);
    return label ? squash(label) : null;
  })();
  const head = parts.slice(0, -2).join('');
  const headIsHeading = heading !== null && squash(head) === squash(heading);
  if (
    headIsHeading ||
    namesSite(last, siteName, domainLabel) ||
    (SHORT_OK.has(sep) && isShort(last) && head.length > last.length * 2)
  ) {
    return rejoin(parts.slice(0, -2));
  }
  if (namesSite(first, siteName, domainLabel)) return rejoin(parts.slice(2));
  return title;
}

/** Joins split parts (text, separator, text, …) back with single spaces around separators. */
function rejoin(parts: string[]): string {
  return parts.map((p, i) => (i % 2 === 1 ? ` ${p} ` : p)).join('');
}

function meta(doc: Document, key: string): string | null {
  const el = doc.querySelector(`meta[property="${key}"], meta[name="${key}"]`);
  const content = el?.getAttribute('content')?.trim();
  return content ? content : null;
}

function textOf(el: Element | null): string | null {
  const text = el?.textContent?.replace(/\s+/g, ' ').trim();
  return text ? text : null;
}

/** og:title, then `<title>`, then the first h1; cleaned of an obvious site-name suffix. */
export function pageTitle(doc: Document, pageUrl: string): string {
  const h1 = textOf(doc.querySelector('h1'));
  const raw = meta(doc, 'og:title') ?? textOf(doc.querySelector('title')) ?? h1 ?? '';
  return cleanTitle(raw, meta(doc, 'og:site_name'), pageUrl, h1);
}
