import type { FetchResponse } from '../schemas/fetch.ts';

export interface PagePartInfo {
  /** Offset of this part in the page content. */
  start: number;
  /** Characters of page content Scout read (at most 200000). */
  total: number;
  /** Where the next part starts, when one follows. */
  next?: number;
  /** The page is longer than what Scout reads of it. */
  cutAtRead: boolean;
  /** The result bound, when it (not max_chars) ended this part. */
  boundTokens?: number;
  /** Pages sharing the bound (fetch_pages), when more than one. */
  sharedBy?: number;
  /** The heading's mark: `#` (one page) unless given, such as `### 2.` for a page among several. */
  heading?: string;
  /** Whether fetch_page is offered, to read on with; true unless given. */
  canReadOn?: boolean;
}

const n = (x: number): string => x.toLocaleString('en-US');

/**
 * One part of a page as markdown: where it comes from, which characters these are, the
 * content, and how to read on (the exact fetch_page call).
 */
export function pageText(body: FetchResponse, part: PagePartInfo): string {
  const where = body.final_url === body.url ? `URL: ${body.url}` : `URL: ${body.final_url} (requested: ${body.url})`;
  const end = part.start + body.chars;
  const range =
    part.start === 0 && part.next === undefined && !part.cutAtRead
      ? `${n(body.chars)} characters`
      : `characters ${n(part.start)} to ${n(end)} of ${n(part.total)}${part.cutAtRead ? '+' : ''}`;
  const head = [
    `${part.heading ?? '#'} ${(body.title || body.final_url).replace(/\s*[\r\n]+\s*/g, ' ')}`,
    where,
    `Content: ${body.meta.content_type ?? 'unknown type'}, ${range}`,
  ];
  if (body.meta.click_path === 'agent_read') head.push('This is the landing page of a sponsored result (an ad).');
  // In fetch_pages (its pages have headings of their own) a page may get no room at all
  // (bound-pages.ts); fetch_page's part is empty only at the end of a page.
  const empty =
    part.next !== undefined && part.heading !== undefined
      ? '(no room for this page in this result)'
      : '(no readable text on this page)';
  const blocks = [head.join('\n'), body.content === '' ? empty : body.content];
  const tail: string[] = [];
  if (part.next !== undefined) {
    const shared = part.sharedBy === undefined ? '' : `, shared by ${part.sharedBy} pages`;
    const why = part.boundTokens === undefined ? '' : ` (parts are kept within ${part.boundTokens} tokens${shared})`;
    tail.push(
      part.canReadOn === false
        ? `More content follows${why}, from character ${part.next}.`
        : `More content follows${why}: call fetch_page with url "${body.url}" and start_index=${part.next} to read the next part.`,
    );
  } else if (part.cutAtRead) {
    tail.push(
      `End of what Scout reads of this page: it is longer than ${n(part.total)} characters and the rest cannot be fetched.`,
    );
  }
  if (tail.length) blocks.push(`---\n${tail.join(' ')}`);
  return blocks.join('\n\n');
}
