import { partLength } from '../content/part-length.ts';
import { DomainError } from '../domain/errors.ts';
import { at } from '../domain/must.ts';
import type { CrawlPage, CrawlResponse } from '../schemas/crawl.ts';
import { fairShares } from './fair-shares.ts';
import { pageText } from './page-text.ts';
import { jsonResultTokens, textTokens } from './result-tokens.ts';

/**
 * crawl_site's result within the result bound (SCOUT_MCP_MAX_RESULT_TOKENS), its markdown text
 * and its structured content (the /v1/crawl body) together, as for the other tools. The pages
 * share the bound as fetch_pages' do (bound-pages.ts): each shows a prefix of its window, an
 * exact slice of the page ending at a break when one is near, a short page taking what it
 * needs and leaving the rest to the long ones; a page cut short gives the start_index to read
 * on from (with fetch_page, when it is offered). When even the pages' headings do not fit
 * (many pages, a small bound), the skipped list goes first, then the last pages, and the
 * answer says it stopped early (`stopped` keeps the crawl's own reason, else `limit`).
 */

export interface BoundedCrawl {
  body: CrawlResponse;
  text: string;
  json: string;
  tokens: number;
}

export interface CrawlBoundOptions {
  limit: number;
  /** Whether fetch_page is offered, so a cut page can say to read on with it. */
  canReadOn: boolean;
}

const ROUNDS = 8;
// Content is in the result twice (text and JSON, where escapes cost a little more).
const COPIES = 2.2;

const STOP_TEXT: Record<NonNullable<CrawlResponse['stopped']>, string> = {
  limit: '`limit` pages were read and more were queued',
  depth: 'links went deeper than max_depth',
  deadline: 'timeout_ms ran out',
  rate_limited: "the key's rate limit ran out",
  fetch_budget: 'the most pages one crawl fetches were fetched',
  char_budget: 'the most characters one crawl returns were returned',
};

/** `p` shown up to `len` characters of its window (a prefix: the page starts at 0). */
function cut(p: CrawlPage, len: number): CrawlPage {
  if (len >= p.content.length) return p;
  return { ...p, content: p.content.slice(0, len), chars: len, next_index: len, truncated: true };
}

function render(crawl: CrawlResponse, lens: readonly number[], kept: number, o: CrawlBoundOptions): BoundedCrawl {
  const pages = crawl.pages.slice(0, kept).map((p, i) => cut(p, at(lens, i, 'page length')));
  const dropped = crawl.pages.length - kept;
  const body: CrawlResponse = {
    ...crawl,
    pages,
    ...(dropped > 0 ? { complete: false, stopped: crawl.stopped ?? 'limit' } : {}),
  };
  const n = pages.length;
  const state = body.stopped === null ? 'complete' : `stopped early: ${STOP_TEXT[body.stopped]}`;
  const blocks = [
    `## Crawl of ${crawl.url}: ${n} page${n === 1 ? '' : 's'} (${state})`,
    `Fetched ${crawl.pages_read} page${crawl.pages_read === 1 ? '' : 's'}${crawl.sitemaps_read > 0 ? ` and ${crawl.sitemaps_read} sitemap${crawl.sitemaps_read === 1 ? '' : 's'}` : ''}; ${crawl.charged} request${crawl.charged === 1 ? '' : 's'} of the rate limit.`,
  ];
  pages.forEach((p, i) => {
    const whole = crawl.pages[i] as CrawlPage;
    const cutByBound = p.chars < whole.chars;
    blocks.push(
      pageText(
        {
          request_id: crawl.request_id,
          url: p.url,
          final_url: p.final_url,
          title: p.title,
          content: p.content,
          chars: p.chars,
          truncated: p.truncated,
          response_time_ms: 0,
          meta: p.meta,
        },
        {
          start: 0,
          total: p.total_chars,
          cutAtRead: whole.truncated && whole.next_index === null,
          ...(p.next_index === null ? {} : { next: p.next_index }),
          ...(cutByBound ? { boundTokens: o.limit, ...(n > 1 ? { sharedBy: n } : {}) } : {}),
          heading: `### ${i + 1}. (depth ${p.depth})`,
          canReadOn: o.canReadOn,
        },
      ),
    );
  });
  if (dropped > 0)
    blocks.push(
      `${dropped} more page${dropped === 1 ? '' : 's'} read did not fit in this result: lower limit or narrow the crawl (include_paths, max_depth) to see them.`,
    );
  if (body.skipped.length > 0)
    blocks.push(`Skipped:\n${body.skipped.map((s) => `- ${s.url}: ${s.reason}`).join('\n')}`);
  const text = blocks.join('\n\n');
  const json = JSON.stringify(body);
  return { body, text, json, tokens: jsonResultTokens(text, json, o.limit) };
}

/** The fewest trailing pages to leave out so that their headings (no content) fit; the skipped list goes first. */
function keptPages(crawl: CrawlResponse, o: CrawlBoundOptions): { crawl: CrawlResponse; kept: number } {
  const zero = (c: CrawlResponse, kept: number) =>
    render(
      c,
      c.pages.map(() => 0),
      kept,
      o,
    ).tokens <= o.limit;
  const total = crawl.pages.length;
  if (zero(crawl, total)) return { crawl, kept: total };
  const c = { ...crawl, skipped: [] };
  let lo = 0;
  let hi = total;
  // The most pages kept: `lo` always fits (no page at all does: a heading and a line), `hi + 1` never.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (zero(c, mid)) lo = mid;
    else hi = mid - 1;
  }
  return { crawl: c, kept: lo };
}

export function boundCrawl(crawl: CrawlResponse, o: CrawlBoundOptions): BoundedCrawl {
  const whole = crawl.pages.map((p) => p.content.length);
  const all = render(crawl, whole, whole.length, o);
  if (all.tokens <= o.limit) return all;
  const { crawl: c, kept } = keptPages(crawl, o);
  const overhead = render(
    c,
    c.pages.map(() => 0),
    kept,
    o,
  ).tokens;
  if (overhead > o.limit) {
    throw new DomainError(
      'invalid',
      `the summary of this crawl alone is longer than the result limit of ${o.limit} tokens; ask for fewer pages (limit)`,
    );
  }
  const pages = c.pages.slice(0, kept);
  const needs = pages.map((p) => textTokens(p.content));
  let avail = Math.floor((o.limit - overhead) / COPIES);
  let lens = pages.map((p) => p.content.length);
  for (let round = 0; round < ROUNDS && avail > 0; round += 1) {
    const shares = fairShares(needs, avail);
    lens = pages.map((p, i) =>
      at(shares, i, 'share') >= at(needs, i, 'need')
        ? p.content.length
        : partLength(p.content, p.content.length, at(shares, i, 'share')),
    );
    const part = render(c, lens, kept, o);
    if (part.tokens <= o.limit) return part;
    avail -= Math.ceil((part.tokens - o.limit) / 2) + 16 * (round + 1);
  }
  // The estimates did not converge (text that costs far more as JSON): halve until it fits;
  // with nothing shown it does (the overhead fits).
  for (;;) {
    const half = lens;
    lens = pages.map((p, i) => partLength(p.content, Math.floor(at(half, i, 'page length') / 2)));
    const part = render(c, lens, kept, o);
    if (part.tokens <= o.limit) return part;
  }
}
