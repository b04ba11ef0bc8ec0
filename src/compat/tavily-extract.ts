import { DomainError } from '../domain/errors.ts';
import { FETCH_LIMITS } from '../schemas/fetch.ts';
import { jsonObject } from './json-body.ts';

/** Tavily's own cap on the URLs of one extract. */
export const EXTRACT_MAX_URLS = 20;

/** What a Tavily extract body asks: its URLs, and whether raw_content is wanted as plain text. */
export interface TavilyExtractPlan {
  urls: string[];
  format: 'markdown' | 'text';
}

/** A Tavily extract body (URLs as a string or a list, `format`); unknown fields are ignored. */
export function extractPlan(body: unknown): TavilyExtractPlan {
  const raw = jsonObject(body).urls;
  const urls = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(urls) || urls.length === 0 || !urls.every((u) => typeof u === 'string'))
    throw new DomainError('invalid', 'urls is required: a URL string or a list of URL strings');
  if (urls.length > EXTRACT_MAX_URLS)
    throw new DomainError('invalid', `urls may list at most ${EXTRACT_MAX_URLS} URLs; send ${urls.length} in batches`);
  const format = (body as Record<string, unknown>).format;
  if (format !== undefined && format !== null && format !== 'markdown' && format !== 'text')
    throw new DomainError('invalid', 'format must be "markdown" or "text"');
  return { urls: urls as string[], format: format === 'text' ? 'text' : 'markdown' };
}

/** Why a URL cannot be fetched at all, before asking the fetch service; undefined when it can be. */
export function urlProblem(url: string): string | undefined {
  if (url.length === 0 || url.length > FETCH_LIMITS.urlMax)
    return `not a URL of 1 to ${FETCH_LIMITS.urlMax} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not an absolute http(s) URL';
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? undefined : 'not an absolute http(s) URL';
}
