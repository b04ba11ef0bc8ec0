import { DomainError } from '../domain/errors.ts';
import { FETCH_LIMITS } from '../schemas/fetch.ts';

/**
 * What every compat shape's body reader (src/compat/) starts with: the body as a JSON object,
 * and a 400 worded for the caller otherwise. The shapes read their bodies themselves (their
 * clients send unknown fields and nulls that a strict schema would refuse).
 */
export function jsonObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new DomainError('invalid', 'send a JSON object');
  return body as Record<string, unknown>;
}

/** A Firecrawl body's `url` (scrape, map, crawl), trimmed; a 400 when missing. */
export function requiredUrl(b: Record<string, unknown>): string {
  if (typeof b.url !== 'string' || b.url.trim() === '')
    throw new DomainError(
      'invalid',
      `url is required: an absolute http(s) URL of 1 to ${FETCH_LIMITS.urlMax} characters`,
    );
  return b.url.trim();
}
