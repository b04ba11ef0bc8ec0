/**
 * Reads a sitemap (sitemaps.org protocol 0.9): a `<urlset>` of `<url>` entries, a
 * `<sitemapindex>` of `<sitemap>` entries (each with `<loc>` and an optional `<lastmod>`), or
 * the protocol's plain-text form, one URL a line. A forward scan with indexOf, no DOM and no
 * regular expression over the document: time linear in its size, memory the entries kept. An
 * entry cut off by a truncated body is left out; entries past MAX_ENTRIES (the protocol's own
 * limit per file) are not read.
 */

export const MAX_ENTRIES = 50_000;

export interface SitemapEntry {
  loc: string;
  lastmod: string | null;
}

export interface Sitemap {
  kind: 'urlset' | 'index' | 'text';
  entries: SitemapEntry[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML character references and the five named entities; anything else is kept as written. */
function decodeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref] ?? whole;
  });
}

/** Where the element `<name …>` starts at or after `from` (not `<names…>`), or -1. */
function openTag(xml: string, name: string, from: number): number {
  for (let at = xml.indexOf(`<${name}`, from); at >= 0; at = xml.indexOf(`<${name}`, at + 1)) {
    const next = xml[at + name.length + 1];
    if (next === '>' || next === ' ' || next === '\t' || next === '\n' || next === '\r' || next === '/') return at;
  }
  return -1;
}

/**
 * The text of the first `<name>…</name>` of one entry's markup, CDATA unwrapped, trimmed; null
 * when absent. Searched in the entry alone: a search of the whole document for a child most
 * entries lack (lastmod) would make the scan quadratic.
 */
function childText(block: string, name: string): string | null {
  const open = openTag(block, name, 0);
  if (open < 0) return null;
  const start = block.indexOf('>', open);
  const end = block.indexOf(`</${name}`, start);
  if (start < 0 || end < 0) return null;
  const text = block.slice(start + 1, end).trim();
  if (text.startsWith('<![CDATA[') && text.endsWith(']]>')) return text.slice(9, -3).trim();
  return decodeXml(text);
}

function readEntries(xml: string, entry: 'url' | 'sitemap', from: number): SitemapEntry[] {
  const entries: SitemapEntry[] = [];
  const close = `</${entry}>`;
  for (let at = openTag(xml, entry, from); at >= 0 && entries.length < MAX_ENTRIES; ) {
    const end = xml.indexOf(close, at);
    if (end < 0) break;
    const block = xml.slice(at, end);
    const loc = childText(block, 'loc');
    if (loc !== null && loc !== '') entries.push({ loc, lastmod: childText(block, 'lastmod') });
    at = openTag(xml, entry, end + close.length);
  }
  return entries;
}

/** The sitemap in `text`, or undefined when it is neither XML sitemap nor a text one. */
export function parseSitemap(text: string): Sitemap | undefined {
  const index = openTag(text, 'sitemapindex', 0);
  if (index >= 0) return { kind: 'index', entries: readEntries(text, 'sitemap', index) };
  const urlset = openTag(text, 'urlset', 0);
  if (urlset >= 0) return { kind: 'urlset', entries: readEntries(text, 'url', urlset) };
  if (text.trimStart().startsWith('<')) return undefined;
  const entries: SitemapEntry[] = [];
  for (const line of text.split('\n')) {
    if (entries.length >= MAX_ENTRIES) break;
    const loc = line.trim();
    if (/^https?:\/\//i.test(loc)) entries.push({ loc, lastmod: null });
  }
  return entries.length === 0 ? undefined : { kind: 'text', entries };
}
