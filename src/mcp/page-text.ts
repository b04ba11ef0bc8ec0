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
    `# ${(body.title || body.final_url).replace(/\s*[\r\n]+\s*/g, ' ')}`,
    where,
    `Content: ${body.meta.content_type ?? 'unknown type'}, ${range}`,
  ];
  if (body.meta.click_path === 'agent_read') head.push('This is the landing page of a sponsored result (an ad).');
  const blocks = [head.join('\n'), body.content === '' ? '(no readable text on this page)' : body.content];
  const tail: string[] = [];
  if (part.next !== undefined) {
    const why = part.boundTokens === undefined ? '' : ` (parts are kept within ${part.boundTokens} tokens)`;
    tail.push(
      `More content follows${why}: call fetch_page with url "${body.url}" and start_index=${part.next} to read the next part.`,
    );
  } else if (part.cutAtRead) {
    tail.push(
      `End of what Scout reads of this page: it is longer than ${n(part.total)} characters and the rest cannot be fetched.`,
    );
  }
  if (tail.length) blocks.push(`---\n${tail.join(' ')}`);
  return blocks.join('\n\n');
}
