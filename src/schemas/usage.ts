import { Type, type Static } from '@sinclair/typebox';

const count = (description: string) => Type.Integer({ minimum: 0, description });

/**
 * GET /v1/usage (a Scout addition; docs/api.md "GET /v1/usage"): what an agent needs to pace
 * itself, the calling key's rate limit and the service's monthly search budget.
 */
export const Usage = Type.Object(
  {
    request_id: Type.String(),
    rate_limit: Type.Object(
      {
        limit_per_minute: count('Requests allowed per minute for this key (RateLimit-Limit).'),
        remaining: count('Requests allowed right now (RateLimit-Remaining). Reading /v1/usage takes none.'),
        reset_seconds: count('Seconds until the allowance is full again (RateLimit-Reset); 0 when it is full.'),
        retry_after_seconds: count('Seconds until the next request is allowed; 0 when remaining is above 0.'),
      },
      {
        additionalProperties: false,
        description: "The calling key's token bucket: it refills evenly over the minute.",
      },
    ),
    budget: Type.Object(
      {
        period: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$', description: 'The calendar month in UTC, YYYY-MM.' }),
        units_total: count('Units the service may spend on searches this month.'),
        units_used: count('Units of the searches served this month, by every key (refunded searches excluded).'),
        units_left: count('units_total less units_used; a search that does not fit is 503.'),
        resets_at: Type.String({
          description: 'When the month ends and units_used starts again from 0 (ISO 8601, UTC).',
        }),
        search_cost: Type.Object(
          {
            basic: count('Units of a basic search.'),
            advanced: count('Units of an advanced search.'),
          },
          { additionalProperties: false, description: 'What a search costs; fetch costs nothing.' },
        ),
      },
      { additionalProperties: false, description: 'The monthly search budget, shared by the whole service.' },
    ),
  },
  { title: 'Usage', additionalProperties: false },
);
export type Usage = Static<typeof Usage>;
