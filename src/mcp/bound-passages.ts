import { keepPassages, type PageWindow } from '../content/page-window.ts';
import type { PageOutcome } from '../content/read-batch.ts';
import { DomainError } from '../domain/errors.ts';
import type { ExtractPage } from '../schemas/extract.ts';
import type { FetchPagesResult, PageFailed, PageRead } from './fetch-pages-schemas.ts';
import { batchHeading, type BoundedPages, failedPage } from './bound-pages.ts';
import { jsonResultTokens } from './result-tokens.ts';

/**
 * fetch_pages with a query: each page's passages most relevant to it (POST /v1/extract's,
 * src/content/page-window.ts), the result within the bound (SCOUT_MCP_MAX_RESULT_TOKENS) as
 * for the other tools. Past the bound every page keeps fewer of its passages, the least
 * relevant going first, until the result fits; the result says when that happened.
 */

export interface PassagesOptions {
  maxPassages: number;
  limit: number;
  /** Whether fetch_page is offered, to read a passage in context. */
  canReadOn: boolean;
}

const n = (x: number): string => x.toLocaleString('en-US');

function pageBlock(heading: string, page: ExtractPage, query: string, o: PassagesOptions, fewer: boolean): string {
  const where = page.final_url === page.url ? `URL: ${page.url}` : `URL: ${page.final_url} (requested: ${page.url})`;
  const end = page.next_index ?? page.total_chars;
  const passages = page.passages ?? [];
  const range =
    page.start_index === 0 && page.next_index === null
      ? `${n(page.total_chars)} characters`
      : `characters ${n(page.start_index)} to ${n(end)} of ${n(page.total_chars)}`;
  const head = [
    `${heading} ${(page.title || page.final_url).replace(/\s*[\r\n]+\s*/g, ' ')}`,
    where,
    `Content: ${page.meta.content_type ?? 'unknown type'}, ${range}; ${passages.length} passage${passages.length === 1 ? '' : 's'} relevant to "${query}"${fewer ? ' (fewer than asked: the result is kept within the token limit)' : ''}`,
  ];
  if (page.meta.click_path === 'agent_read') head.push('This is the landing page of a sponsored result (an ad).');
  const body =
    passages.length === 0
      ? '(no passage of this page shares a word with the query)'
      : passages.map((p) => `[from character ${n(p.start_index)}]\n${p.text}`).join('\n\n');
  const blocks = [head.join('\n'), body];
  if (page.next_index !== null) {
    blocks.push(
      `---\nPassages were looked for up to character ${n(page.next_index)} (max_chars); the page goes on from there.`,
    );
  }
  if (passages.length > 0 && o.canReadOn) {
    blocks.push(`To read a passage in context, call fetch_page with url "${page.url}" and its start_index.`);
  }
  return blocks.join('\n\n');
}

export function boundPassages(
  outcomes: readonly PageOutcome<PageWindow>[],
  query: string,
  o: PassagesOptions,
): BoundedPages {
  const count = outcomes.length;
  const failed = outcomes.filter((x) => 'error' in x).length;
  const render = (keep: number): BoundedPages => {
    const entries: (PageRead | PageFailed)[] = [];
    const blocks = [batchHeading(count, failed)];
    outcomes.forEach((x, i) => {
      const heading = `### ${i + 1}.`;
      if (!('page' in x)) {
        const { entry, block } = failedPage(x.url, x.error, heading);
        entries.push(entry);
        blocks.push(block);
        return;
      }
      const page = keepPassages(x.page, keep);
      entries.push(page);
      const fewer = (page.passages?.length ?? 0) < (x.page.entry.passages?.length ?? 0);
      blocks.push(pageBlock(heading, page, query, o, fewer));
    });
    const body: FetchPagesResult = { results: entries };
    const text = blocks.join('\n\n');
    const json = JSON.stringify(body);
    return { body, text, json, tokens: jsonResultTokens(text, json, o.limit) };
  };
  for (let keep = o.maxPassages; keep >= 0; keep -= 1) {
    const r = render(keep);
    if (r.tokens <= o.limit) return r;
  }
  throw new DomainError(
    'invalid',
    `the titles, addresses and errors of these ${count} pages alone are longer than the result limit of ${o.limit} tokens; ask for fewer URLs per call`,
  );
}
