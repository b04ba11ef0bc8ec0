import { Type, type Static } from '@sinclair/typebox';
import { rule } from './rule.ts';

export const FETCH_LIMITS = { urlMax: 2048, maxChars: { min: 500, max: 200000, default: 50000 } } as const;

/** SPEC 2.5 */
export const FetchRequest = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: FETCH_LIMITS.urlMax,
      description: 'Absolute http(s) URL of the page, 1..2048 characters.',
      ...rule(`must be an absolute http(s) URL of 1 to ${FETCH_LIMITS.urlMax} characters`),
    }),
    max_chars: Type.Optional(
      Type.Integer({
        minimum: FETCH_LIMITS.maxChars.min,
        maximum: FETCH_LIMITS.maxChars.max,
        default: FETCH_LIMITS.maxChars.default,
        description: 'Hard cap on content length in characters, 500..200000 (default 50000).',
        ...rule('must be an integer from 500 to 200000'),
      }),
    ),
  },
  { title: 'FetchRequest', additionalProperties: false },
);
export type FetchRequest = Static<typeof FetchRequest>;

/** SPEC 2.6 */
export const FetchResponse = Type.Object(
  {
    request_id: Type.String(),
    url: Type.String({ description: 'The requested URL.' }),
    final_url: Type.String({ description: 'The URL after unwrapping and redirects.' }),
    title: Type.String(),
    content: Type.String({ description: 'Main content as markdown.' }),
    chars: Type.Number(),
    truncated: Type.Boolean(),
    response_time_ms: Type.Number(),
    meta: Type.Object(
      {
        unwrapped: Type.Boolean(),
        click_path: Type.Union([Type.Literal('agent_read'), Type.Null()]),
        content_type: Type.Union([Type.String(), Type.Null()]),
      },
      { additionalProperties: false },
    ),
  },
  { title: 'FetchResponse', additionalProperties: false },
);
export type FetchResponse = Static<typeof FetchResponse>;
