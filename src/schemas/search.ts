import { Type, type Static } from '@sinclair/typebox';
import { rule } from './rule.ts';

/** Limits of SPEC 2.1 / 8, shared by the schema and by docs and messages. */
export const SEARCH_LIMITS = {
  queryMax: 400,
  maxResults: { min: 1, max: 20, default: 10 },
  maxContentTokens: { min: 100, max: 32000 },
  domainEntries: 50,
} as const;

const DATE = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';

const DomainList = () =>
  Type.Union(
    [
      Type.String({ minLength: 1, maxLength: 253 }),
      Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { maxItems: SEARCH_LIMITS.domainEntries }),
    ],
    {
      description: `A domain or a list of at most ${SEARCH_LIMITS.domainEntries} domains; each matches itself and its subdomains.`,
      ...rule(
        `must be a domain string or an array of at most ${SEARCH_LIMITS.domainEntries} domain strings (each 1..253 characters)`,
      ),
    },
  );

/** SPEC 2.1. Unknown fields are refused (docs/api.md "Unknown fields"). */
export const SearchRequest = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      maxLength: SEARCH_LIMITS.queryMax,
      description: 'The search query, 1..400 characters.',
      ...rule(`must be a string of 1 to ${SEARCH_LIMITS.queryMax} characters`),
    }),
    max_results: Type.Optional(
      Type.Integer({
        minimum: SEARCH_LIMITS.maxResults.min,
        maximum: SEARCH_LIMITS.maxResults.max,
        default: SEARCH_LIMITS.maxResults.default,
        description: 'Organic results wanted, 1..20 (default 10). Sponsored entries never take an organic slot.',
        ...rule('must be an integer from 1 to 20'),
      }),
    ),
    include_domains: Type.Optional(DomainList()),
    exclude_domains: Type.Optional(DomainList()),
    freshness: Type.Optional(
      Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month'), Type.Literal('year')], {
        description:
          'Only results published within the last day, week, month or year. start_date/end_date win over it.',
        ...rule('must be one of day, week, month, year'),
      }),
    ),
    start_date: Type.Optional(
      Type.String({
        pattern: DATE,
        description: 'Earliest publication date, YYYY-MM-DD (inclusive).',
        ...rule('must be a date YYYY-MM-DD'),
      }),
    ),
    end_date: Type.Optional(
      Type.String({
        pattern: DATE,
        description: 'Latest publication date, YYYY-MM-DD (inclusive).',
        ...rule('must be a date YYYY-MM-DD'),
      }),
    ),
    search_depth: Type.Optional(
      Type.Union([Type.Literal('basic'), Type.Literal('advanced')], {
        default: 'basic',
        description: 'basic (1 budget unit, the default) or advanced (2 units).',
        ...rule('must be one of basic, advanced'),
      }),
    ),
    max_content_tokens: Type.Optional(
      Type.Integer({
        minimum: SEARCH_LIMITS.maxContentTokens.min,
        maximum: SEARCH_LIMITS.maxContentTokens.max,
        description: 'Token budget for the content of the whole response, 100..32000.',
        ...rule('must be an integer from 100 to 32000'),
      }),
    ),
    country: Type.Optional(
      Type.String({
        minLength: 2,
        maxLength: 2,
        pattern: '^[A-Za-z]{2}$',
        description: 'ISO 3166-1 alpha-2 country code, exactly 2 letters (any case).',
        ...rule('must be a 2-letter country code such as US'),
      }),
    ),
  },
  { title: 'SearchRequest', additionalProperties: false },
);
export type SearchRequest = Static<typeof SearchRequest>;

/** SPEC 2.4 */
export const Incentive = Type.Object(
  {
    kind: Type.Union([Type.Literal('credit'), Type.Literal('code'), Type.Literal('trial')]),
    code: Type.Optional(Type.String()),
    benefit: Type.String(),
  },
  { additionalProperties: false, title: 'Incentive' },
);
export type Incentive = Static<typeof Incentive>;

/** SPEC 2.3 */
export const Result = Type.Object(
  {
    type: Type.Union([Type.Literal('organic'), Type.Literal('sponsored')]),
    position: Type.Optional(
      Type.Integer({
        minimum: -9007199254740991,
        maximum: 9007199254740991,
        description: '1-based within its type: organic 1..n, sponsored 1..k.',
      }),
    ),
    title: Type.String(),
    url: Type.String(),
    domain: Type.String({ description: 'Host of url without www.' }),
    content: Type.String(),
    extra_snippets: Type.Optional(Type.Array(Type.String())),
    raw_content: Type.Optional(Type.String()),
    published_date: Type.Optional(Type.String({ description: 'ISO 8601.' })),
    favicon: Type.Optional(Type.String()),
    disclosure: Type.Optional(Type.String()),
    rec_id: Type.Optional(Type.String()),
    incentive: Type.Optional(Incentive),
  },
  { additionalProperties: false, title: 'Result' },
);
export type Result = Static<typeof Result>;

/** SPEC 2.2 */
export const SearchResponse = Type.Object(
  {
    request_id: Type.String(),
    query: Type.String(),
    results: Type.Array(Result),
    response_time_ms: Type.Number(),
    meta: Type.Object({ sponsored_count: Type.Number(), result_count: Type.Number() }, { additionalProperties: false }),
  },
  { title: 'SearchResponse', additionalProperties: false },
);
export type SearchResponse = Static<typeof SearchResponse>;

/** SPEC 4.2: every parameter is declared as a string; src/http/search-query-string.ts converts. */
// An array here means the parameter was repeated: the only way a string check fails.
const QS = (description: string) => Type.String({ description, ...rule('must be given once') });
const QSList = (description: string) => Type.Union([Type.String(), Type.Array(Type.String())], { description });
export const SearchQueryString = Type.Object(
  {
    q: Type.String({
      description: 'The search query (maps to query), 1..400 characters.',
      ...rule('must be given once, 1 to 400 characters'),
    }),
    max_results: Type.Optional(QS('Integer 1..20, digits only.')),
    search_depth: Type.Optional(QS('basic or advanced.')),
    freshness: Type.Optional(QS('day, week, month or year.')),
    country: Type.Optional(QS('2-letter country code.')),
    start_date: Type.Optional(QS('YYYY-MM-DD.')),
    end_date: Type.Optional(QS('YYYY-MM-DD.')),
    include_domains: Type.Optional(QSList('Repeat the parameter or pass a comma-separated list.')),
    exclude_domains: Type.Optional(QSList('Repeat the parameter or pass a comma-separated list.')),
  },
  { title: 'SearchQueryString' },
);
