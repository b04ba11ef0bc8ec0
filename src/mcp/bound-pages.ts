import type { PageOutcome as ReadOutcome } from '../content/read-batch.ts';
import { DomainError } from '../domain/errors.ts';
import { at } from '../domain/must.ts';
import type { FetchResponse } from '../schemas/fetch.ts';
import { fairShares } from './fair-shares.ts';
import type { FetchPagesResult, PageFailed, PageRead } from './fetch-pages-schemas.ts';
import { partLength } from '../content/part-length.ts';
import { pageText } from './page-text.ts';
import { jsonResultTokens, textTokens } from './result-tokens.ts';
import { errorFields, errorText } from './tool-errors.ts';

/**
 * fetch_pages' result within the result bound (SCOUT_MCP_MAX_RESULT_TOKENS), its text and
 * structured content together, as for the other tools. Each page shows a prefix of its content
 * (an exact slice, ending at a paragraph or line break when one is near, as fetch_page's parts
 * do); the bound is shared fairly: a short page takes what it needs and leaves the rest to the
 * long ones. A page cut short says so and gives the start_index fetch_page continues from.
 */

/** One URL's outcome: the page as /v1/fetch answered it (read whole), or why it failed. */
export type PageOutcome = ReadOutcome<FetchResponse>;

export interface BoundedPages {
  body: FetchPagesResult;
  text: string;
  /** `body` as JSON, as measured. */
  json: string;
  tokens: number;
}

export interface PagesOptions {
  /** Most characters of each page (max_chars). */
  maxChars: number;
  limit: number;
  /** Whether fetch_page is offered, so a cut page can say to read on with it. */
  canReadOn: boolean;
}

const ROUNDS = 8;
// Content is in the result twice (text and JSON, where escapes cost a little more).
const COPIES = 2.2;
// Characters of a page counted for its need: beyond them it needs more than any bound gives.
const COUNTED_CHARS_PER_TOKEN = 6;

/** The heading of a batch's text: how many pages were read and how many failed. */
export const batchHeading = (count: number, failed: number): string =>
  `## ${count} page${count === 1 ? '' : 's'}: ${count - failed} read${failed ? `, ${failed} failed` : ''}`;

/** A page of the batch that failed: its entry and its block of text, under `heading`. */
export const failedPage = (url: string, error: unknown, heading: string): { entry: PageFailed; block: string } => ({
  entry: { url, ok: false, error: errorFields(error) },
  block: `${heading} ${url}\n${errorText(error)}`,
});

export function boundPages(outcomes: readonly PageOutcome[], o: PagesOptions): BoundedPages {
  const n = outcomes.length;
  const failed = outcomes.filter((x) => 'error' in x).length;
  // What each page shows without the bound: max_chars of it, ending at a break.
  const whole = outcomes.map((x) => ('page' in x ? partLength(x.page.content, o.maxChars) : 0));

  const render = (lens: readonly number[]): BoundedPages => {
    const entries: (PageRead | PageFailed)[] = [];
    const blocks = [batchHeading(n, failed)];
    outcomes.forEach((x, i) => {
      const heading = `### ${i + 1}.`;
      if (!('page' in x)) {
        const { entry, block } = failedPage(x.url, x.error, heading);
        entries.push(entry);
        blocks.push(block);
        return;
      }
      const { page } = x;
      const full = page.content;
      const len = at(lens, i, 'page length');
      const content = full.slice(0, len);
      const more = len < full.length;
      const truncated = more || page.truncated;
      entries.push({
        url: x.url,
        ok: true,
        final_url: page.final_url,
        title: page.title,
        content,
        start_index: 0,
        chars: len,
        total_chars: full.length,
        next_index: more ? len : null,
        truncated,
        meta: page.meta,
      });
      const cutByBound = len < at(whole, i, 'page length');
      blocks.push(
        pageText(
          { ...page, url: x.url, content, chars: len, truncated },
          {
            start: 0,
            total: full.length,
            cutAtRead: page.truncated,
            ...(more ? { next: len } : {}),
            ...(cutByBound ? { boundTokens: o.limit, ...(n > 1 ? { sharedBy: n } : {}) } : {}),
            heading,
            canReadOn: o.canReadOn,
          },
        ),
      );
    });
    const body: FetchPagesResult = { results: entries };
    const text = blocks.join('\n\n');
    const json = JSON.stringify(body);
    return { body, text, json, tokens: jsonResultTokens(text, json, o.limit) };
  };

  const all = render(whole);
  if (all.tokens <= o.limit) return all;
  const overhead = render(whole.map(() => 0)).tokens;
  if (overhead > o.limit) {
    throw new DomainError(
      'invalid',
      `the titles, addresses and errors of these ${n} pages alone are longer than the result limit of ${o.limit} tokens; ask for fewer URLs per call`,
    );
  }
  const needs = outcomes.map((x, i) =>
    'page' in x
      ? textTokens(x.page.content.slice(0, Math.min(at(whole, i, 'page length'), o.limit * COUNTED_CHARS_PER_TOKEN)))
      : 0,
  );
  let avail = Math.floor((o.limit - overhead) / COPIES);
  let lens: number[] = whole;
  for (let round = 0; round < ROUNDS && avail > 0; round += 1) {
    const shares = fairShares(needs, avail);
    lens = outcomes.map((x, i) => {
      if (!('page' in x)) return 0;
      const share = at(shares, i, 'share');
      return share >= at(needs, i, 'need') && at(whole, i, 'page length') <= o.limit * COUNTED_CHARS_PER_TOKEN
        ? at(whole, i, 'page length')
        : partLength(x.page.content, o.maxChars, share);
    });
    const part = render(lens);
    if (part.tokens <= o.limit) return part;
    avail -= Math.ceil((part.tokens - o.limit) / 2) + 16 * (round + 1);
  }
  // The estimates did not converge (text that costs far more as JSON): halve until it fits;
  // with nothing shown it does (the overhead fits).
  for (;;) {
    const half = lens;
    lens = outcomes.map((x, i) =>
      'page' in x ? partLength(x.page.content, Math.floor(at(half, i, 'page length') / 2)) : 0,
    );
    const part = render(lens);
    if (part.tokens <= o.limit) return part;
  }
}
