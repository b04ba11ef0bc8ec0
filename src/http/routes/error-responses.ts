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

/** The Error schema for each listed status, so serialization and OpenAPI both know it. */
export function errorResponses(schema: TSchema, statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, { ...schema, description: DESCRIPTIONS[s] ?? 'Error' }]));
}
