import { partLength } from '../content/part-length.ts';
import { DomainError } from '../domain/errors.ts';
import type { FetchResponse } from '../schemas/fetch.ts';
import { pageText } from './page-text.ts';
import { jsonResultTokens } from './result-tokens.ts';

/**
 * fetch_page's continuation. The page is read whole (up to 200000 characters) and one part
 * of it is returned: from `start` to at most `maxChars` further, and short enough that the
 * result (text and structured content) stays within the bound. A part is an exact slice of
 * the page content, so the next one starts at start + chars; structuredContent is the
 * /v1/fetch body of that part, `truncated` true when the page goes on after it.
 */

const ROUNDS = 8;

export interface PagePart {
  body: FetchResponse;
  text: string;
  /** `body` as JSON, as measured (the result sends it as it is: rendered-result.ts). */
  json: string;
  tokens: number;
}

export function pagePart(page: FetchResponse, start: number, maxChars: number, limit: number): PagePart {
  const full = page.content;
  if (start > 0 && start >= full.length) {
    throw new DomainError(
      'invalid',
      `start_index ${start} is past the end of the page content (${full.length} characters); the page has been read to its end`,
    );
  }
  const rest = full.slice(start);
  const make = (len: number, bounded: boolean): PagePart => {
    const content = rest.slice(0, len);
    // truncated: the page goes on after this part (readable with start_index, or past what Scout reads).
    const body: FetchResponse = {
      ...page,
      content,
      chars: content.length,
      truncated: start + len < full.length || page.truncated,
    };
    const next = start + len < full.length ? start + len : undefined;
    const info = {
      start,
      total: full.length,
      cutAtRead: page.truncated,
      ...(next === undefined ? {} : { next }),
      ...(bounded ? { boundTokens: limit } : {}),
    };
    const text = pageText(body, info);
    const json = JSON.stringify(body);
    return { body, text, json, tokens: jsonResultTokens(text, json, limit) };
  };
  const whole = make(partLength(rest, maxChars), false);
  if (whole.tokens <= limit) return whole;
  // The content is in the result twice (text and JSON); its share is what the rest leaves.
  const overhead = make(0, true).tokens;
  if (overhead >= limit) {
    throw new DomainError(
      'upstream',
      `the page's title and address alone are longer than the result limit of ${limit} tokens`,
    );
  }
  let budget = Math.floor((limit - overhead) / 2.2);
  for (let round = 0; round < ROUNDS; round += 1) {
    const part = make(partLength(rest, maxChars, budget), true);
    if (part.tokens <= limit && part.body.chars > 0) return part;
    if (part.tokens <= limit) break;
    budget -= Math.ceil((part.tokens - limit) / 2) + 16 * (round + 1);
    if (budget <= 0) break;
  }
  // The estimates did not converge (text that costs far more as JSON): halve until it fits.
  for (let len = partLength(rest, maxChars, Math.max(1, budget)); len > 0; len = Math.floor(len / 2)) {
    const part = make(len, true);
    if (part.tokens <= limit) return part;
  }
  throw new DomainError('upstream', `no part of this page fits the result limit of ${limit} tokens`);
}
