import type { TSchema } from '@sinclair/typebox';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: the message names the field and the rule.',
  401: 'Missing, malformed, unknown or revoked API key.',
  403: 'Refused: private, loopback or reserved address.',
  413: 'Request body too large.',
  415: 'Unsupported content type of the fetched page.',
  429: 'Rate limited; see the Retry-After header (seconds).',
  502: 'Upstream failed.',
  503: 'Monthly free budget exhausted (search), or backend unavailable.',
  504: 'Upstream fetch timed out.',
};

const str = (description: string) => ({ type: 'string', description });
const int = (description: string) => ({ type: 'integer', description });

/** Headers every response carries; listed in OpenAPI (swagger reads `headers` of a response schema). */
const COMMON = {
  'x-request-id': str('Unique id of this request; equals request_id and appears in every log line of it.'),
};
/** Headers of every authenticated response. */
export const RATE_HEADERS = {
  ...COMMON,
  'ratelimit-limit': int('Requests allowed per minute for this key.'),
  'ratelimit-remaining': int('Requests allowed right now.'),
  'ratelimit-reset': int('Seconds until the allowance is full again.'),
};
const EXTRA: Record<number, Record<string, object>> = {
  401: { ...COMMON, 'www-authenticate': str('Bearer realm="scout"') },
  429: { ...RATE_HEADERS, 'retry-after': int('Seconds to wait, at least 1.') },
  503: { ...RATE_HEADERS, 'retry-after': int('Seconds until the budget resets or the backend may answer again.') },
};

/** The Error schema for each listed status, so serialization and OpenAPI both know it. */
export function errorResponses(schema: TSchema, statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(
    statuses.map((s) => [s, { ...schema, description: DESCRIPTIONS[s] ?? 'Error', headers: EXTRA[s] ?? RATE_HEADERS }]),
  );
}

/** A success schema with its description and headers for OpenAPI. */
export const okResponse = (
  schema: TSchema,
  description: string,
  headers: Record<string, object> = RATE_HEADERS,
): TSchema => ({
  ...schema,
  description,
  headers,
});
