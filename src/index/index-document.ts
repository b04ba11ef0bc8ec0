import { displayDomain } from '../domain/domains.ts';
import { DomainError } from '../domain/errors.ts';
import type { DocumentRow } from '../store/index-rows.ts';
import { parsePublishedDate } from './published-date.ts';

/** A document as callers hand it to the index (one JSONL line of `scout index import`). */
export interface IndexDocument {
  url: string;
  title: string;
  content: string;
  /** ISO 8601 date or date-time. */
  published_date?: string;
  /** ISO 3166-1 alpha-2, any case. */
  country?: string;
  /** BCP 47 tag such as `en` or `pt-BR`. */
  language?: string;
}

export type Checked = { row: DocumentRow } | Refusal;

type Refusal = { reason: string };

const LANGUAGE = /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i;
const MAX_URL = 2048;

const refused = (v: unknown): v is Refusal => typeof v === 'object' && v !== null;

function requiredText(o: Record<string, unknown>, field: string): string | Refusal {
  const v = o[field];
  if (typeof v !== 'string') return { reason: `${field} must be a string` };
  const t = v.trim();
  if (t === '') return { reason: `${field} must not be empty` };
  return t;
}

/** Trimmed text, or null when absent or blank; a refusal when present but not a string or not matching `valid`. */
function optionalText(
  o: Record<string, unknown>,
  field: string,
  valid: (s: string) => boolean,
  rule: string,
): string | null | Refusal {
  const v = o[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') return { reason: `${field} must be a string when present` };
  const t = v.trim();
  if (t === '') return null;
  return valid(t) ? t : { reason: `${field} must be ${rule}` };
}

/** A url as documents store it (WHATWG form), or why it cannot be one: `scout index remove` finds documents by it. */
export function storedUrl(url: string): string | { reason: string } {
  return checkUrl(url.trim());
}

function checkUrl(url: string): string | Refusal {
  if (url.length > MAX_URL) return { reason: `url must be at most ${MAX_URL} characters` };
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { reason: 'url must be an absolute http(s) URL' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { reason: 'url must use http or https' };
  if (displayDomain(u.href) === '') return { reason: 'url must have a host name' };
  return u.href;
}

/**
 * Validates one incoming document. Text is trimmed; the url is stored as WHATWG URL parsing
 * writes it (host lower case, default port dropped), so the same page imported twice replaces
 * itself; country is upper-cased; blank optional fields count as absent.
 */
export function checkDocument(input: unknown): Checked {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { reason: 'each line must be a JSON object' };
  }
  const o = input as Record<string, unknown>;
  const url = requiredText(o, 'url');
  if (refused(url)) return url;
  const href = checkUrl(url);
  if (refused(href)) return href;
  const title = requiredText(o, 'title');
  if (refused(title)) return title;
  const content = requiredText(o, 'content');
  if (refused(content)) return content;
  const date = optionalText(
    o,
    'published_date',
    (s) => parsePublishedDate(s) !== undefined,
    'an ISO 8601 date (YYYY-MM-DD) or date-time',
  );
  if (refused(date)) return date;
  const country = optionalText(o, 'country', (s) => /^[a-z]{2}$/i.test(s), 'a 2-letter ISO 3166-1 code');
  if (refused(country)) return country;
  const language = optionalText(o, 'language', (s) => LANGUAGE.test(s), 'a BCP 47 tag such as en or pt-BR');
  if (refused(language)) return language;
  const published = date === null ? undefined : parsePublishedDate(date);
  return {
    row: {
      url: href,
      domain: displayDomain(href),
      title,
      content,
      published_date: published?.iso ?? null,
      published_day: published?.day ?? null,
      language,
      country: country?.toUpperCase() ?? null,
    },
  };
}

/** Checks every document of a batch; throws DomainError `invalid` naming the first bad one (1-based). */
export function checkDocuments(docs: readonly unknown[]): DocumentRow[] {
  return docs.map((doc, i) => {
    const checked = checkDocument(doc);
    if ('reason' in checked) throw new DomainError('invalid', `document ${i + 1}: ${checked.reason}`);
    return checked.row;
  });
}
