import { Type, type Static } from '@sinclair/typebox';

/**
 * The SearXNG JSON shape (docs/compat.md), as the apps that take a SearXNG URL read it:
 * OpenWebUI, LibreChat, Perplexica, LangChain's SearxngSearch.
 */
export const SearxngResult = Type.Object(
  {
    url: Type.String(),
    title: Type.String({ description: 'Sponsored entries start with "Sponsored: ".' }),
    content: Type.String({
      description: 'Sponsored entries start with "Sponsored by <advertiser> (an ad, not a search result)."',
    }),
    score: Type.Number({
      description:
        'Strictly descending through the results: organic 1.00 at rank 1, 0.01 less a rank; sponsored entries just above 1.',
    }),
    engine: Type.String({
      description: 'The provider that answered, "scout" when several were fused, "sponsored" for an ad.',
    }),
    engines: Type.Array(Type.String(), { description: 'The providers that answered (x-scout-provider).' }),
    category: Type.String({ description: '"general" for results, "sponsored" for ads.' }),
    publishedDate: Type.Optional(Type.String({ description: 'ISO 8601, when the result has a date.' })),
  },
  { title: 'SearxngResult', additionalProperties: false },
);
export type SearxngResult = Static<typeof SearxngResult>;

/** Lists SearXNG fills from its engines' extras; Scout has none of them. */
const alwaysEmpty = (what: string) =>
  Type.Array(Type.Unknown(), { maxItems: 0, description: `Always empty: Scout has no ${what}.` });

export const SearxngResponse = Type.Object(
  {
    query: Type.String(),
    number_of_results: Type.Integer({
      minimum: 0,
      maximum: 9007199254740991,
      description: 'Organic results in this answer (sponsored entries not counted).',
    }),
    results: Type.Array(SearxngResult),
    answers: alwaysEmpty('instant answers'),
    corrections: alwaysEmpty('spelling corrections'),
    infoboxes: alwaysEmpty('infoboxes'),
    suggestions: alwaysEmpty('query suggestions'),
    unresponsive_engines: alwaysEmpty('unresponsive engines to report: a failed search is an error answer'),
  },
  { title: 'SearxngResponse', additionalProperties: false },
);
export type SearxngResponse = Static<typeof SearxngResponse>;

// Optional, even q: src/compat/searxng-request.ts says what is missing, for GET and form alike.
const param = (description: string) =>
  Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description }));

/**
 * The parameters of GET /search (query string) and POST /search (form body), for OpenAPI only:
 * every value is accepted here and src/compat/searxng-request.ts reads them, so the GET and
 * form forms answer with the same messages. A repeated parameter counts once (its first value).
 */
export const SearxngParams = Type.Object(
  {
    q: param('The search query, 1..400 characters; without it the answer is 400.'),
    format: param('json (the default); html, csv and rss are refused with 400.'),
    pageno: param('Page of 10 results, from 1. Pages 1 and 2 hold results; later pages are empty.'),
    time_range: param('day, week, month or year (Scout freshness); empty for none.'),
    language: param('Ignored.'),
    categories: param('Ignored: results are general web results.'),
    engines: param('Ignored: the operator chooses the providers (SCOUT_SEARCH_PROVIDERS).'),
    safesearch: param('Ignored.'),
    theme: param('Ignored.'),
    image_proxy: param('Ignored.'),
  },
  { additionalProperties: true, description: 'Any other parameter is ignored.' },
);
