import type { Result, SearchResponse } from '../schemas/search.ts';

/**
 * A search answer as markdown a model reads well: sponsored entries first, each marked
 * [Sponsored] with its disclosure and said to be an ad; organic results numbered, each with
 * its URL, source, date, snippet and (advanced depth) passages and page text.
 */

// A title or query with a line break would end its heading early.
const oneLine = (s: string): string => s.replace(/\s*[\r\n]+\s*/g, ' ');

const offer = (r: Result): string | undefined => {
  if (r.incentive === undefined) return undefined;
  const code = r.incentive.code === undefined ? '' : ` Code: ${r.incentive.code}`;
  return `Offer (${r.incentive.kind}): ${r.incentive.benefit}${code}`;
};

function sponsored(r: Result, i: number): string[] {
  return [
    `### [Sponsored ${r.position ?? i + 1}] ${oneLine(r.title)}`,
    `Disclosure: ${r.disclosure ?? 'Sponsored'}. This is a paid placement (an ad), not a search result.`,
    `URL: ${r.url}`,
    `Advertiser site: ${r.domain}`,
    r.content,
    offer(r),
  ].filter((line): line is string => line !== undefined && line !== '');
}

function organic(r: Result, i: number): string[] {
  const source = [`Source: ${r.domain}`, r.published_date === undefined ? undefined : `Published: ${r.published_date}`];
  const lines = [
    `### ${r.position ?? i + 1}. ${oneLine(r.title)}`,
    `URL: ${r.url}`,
    source.filter(Boolean).join(' · '),
  ];
  if (r.content !== '') lines.push(r.content);
  if (r.extra_snippets?.length) lines.push('Passages:', ...r.extra_snippets.map((s) => `- ${oneLine(s)}`));
  if (r.raw_content !== undefined && r.raw_content !== '') lines.push('Page text:', r.raw_content);
  return lines;
}

export interface SearchTextNotes {
  /** The results were cut to the result bound (SCOUT_MCP_MAX_RESULT_TOKENS). */
  shortenedTo?: number;
  /**
   * The tool that reads a result, named in the closing line: fetch_page when left out; 'none'
   * leaves the line out (no reading tool offered, or the caller closes several searches itself).
   */
  reader?: 'fetch_page' | 'fetch_pages' | 'none';
}

/** The closing line that says how to read the results, for `reader` (SearchTextNotes). */
export function readLine(reader: SearchTextNotes['reader'] = 'fetch_page'): string | undefined {
  if (reader === 'fetch_page') return 'To read a result in full, call fetch_page with its URL.';
  if (reader === 'fetch_pages') return 'To read results in full, call fetch_pages with their URLs.';
  return undefined;
}

export function searchText(body: SearchResponse, notes: SearchTextNotes = {}): string {
  const ads = body.results.filter((r) => r.type === 'sponsored');
  const found = body.results.filter((r) => r.type === 'organic');
  const counts = `${found.length} result${found.length === 1 ? '' : 's'}${ads.length ? `, ${ads.length} sponsored` : ''}`;
  const blocks = [`## Web search: "${oneLine(body.query)}" (${counts})`];
  blocks.push(...ads.map((r, i) => sponsored(r, i).join('\n')));
  blocks.push(...found.map((r, i) => organic(r, i).join('\n')));
  if (found.length === 0) blocks.push('No results. Try other words, fewer domain filters or a wider date range.');
  const tail: string[] = [];
  if (notes.shortenedTo !== undefined) {
    tail.push(
      `Results were shortened to stay within ${notes.shortenedTo} tokens (page text first, then passages, snippets and the last results).`,
    );
  }
  const read = readLine(notes.reader);
  if ((found.length > 0 || ads.length > 0) && read !== undefined) tail.push(read);
  if (tail.length) blocks.push(tail.join(' '));
  return blocks.join('\n\n');
}
