import { DomainError } from '../domain/errors.ts';
import type { SearchRequest } from '../schemas/search.ts';

type Query = Record<string, string | string[] | undefined>;

const PARAMS = new Set([
  'q',
  'max_results',
  'search_depth',
  'freshness',
  'country',
  'start_date',
  'end_date',
  'include_domains',
  'exclude_domains',
]);

const single = (q: Query, name: string): string | undefined => {
  const v = q[name];
  if (Array.isArray(v)) throw new DomainError('invalid', `${name} must be given once`);
  return v;
};

/** Strict integer: digits only ("5" ok; "5.5", "abc", "", "+5", " 5" are refused). */
function integer(q: Query, name: string, rule: string): number | undefined {
  const v = single(q, name);
  if (v === undefined) return undefined;
  if (!/^[0-9]{1,9}$/.test(v)) throw new DomainError('invalid', `${name} ${rule}`);
  return Number(v);
}

/**
 * Repetition and comma lists both work: `a=x&a=y,z` → [x, y, z]. Empty items are kept, so the
 * schema refuses `a=x&a=` and `a=x,` as POST refuses ["x", ""]: dropping them silently would
 * hide a list built from a missing value.
 */
function list(q: Query, name: string): string[] | undefined {
  const v = q[name];
  if (v === undefined) return undefined;
  return [v]
    .flat()
    .flatMap((s) => s.split(','))
    .map((s) => s.trim());
}

/**
 * GET /v1/search query string → the POST body shape (SPEC 4.2), validated afterwards by the
 * same schema as POST so both forms answer with the same messages.
 */
export function searchRequestFromQuery(q: Query): Record<string, unknown> {
  if ('max_content_tokens' in q) {
    throw new DomainError('invalid', 'max_content_tokens is not accepted on GET /v1/search; use POST /v1/search');
  }
  for (const name of Object.keys(q)) {
    if (!PARAMS.has(name)) {
      throw new DomainError(
        'invalid',
        `unknown query parameter "${name.slice(0, 50)}"; allowed parameters are ${[...PARAMS].join(', ')}`,
      );
    }
  }
  const body: Partial<Record<keyof SearchRequest, unknown>> = { query: single(q, 'q') };
  const maxResults = integer(q, 'max_results', 'must be an integer from 1 to 20');
  if (maxResults !== undefined) body.max_results = maxResults;
  for (const name of ['search_depth', 'freshness', 'country', 'start_date', 'end_date'] as const) {
    const v = single(q, name);
    if (v !== undefined) body[name] = v;
  }
  for (const name of ['include_domains', 'exclude_domains'] as const) {
    const v = list(q, name);
    if (v !== undefined) body[name] = v;
  }
  return body;
}
