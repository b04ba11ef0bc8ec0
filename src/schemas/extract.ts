import { Type, type Static } from '@sinclair/typebox';
import { FETCH_LIMITS, FetchRequest, FetchResponse } from './fetch.ts';
import { rule } from './rule.ts';
import { SEARCH_LIMITS } from './search.ts';

/**
 * POST /v1/extract (docs/api.md "POST /v1/extract"): several pages read at once, each as a
 * window of its content or as its passages most relevant to a question. A new endpoint in
 * the spec's style: strict bodies, the Error shape, one outcome per URL.
 */
export const EXTRACT_LIMITS = {
  urls: { min: 1, max: 20 },
  maxPassages: { min: 1, max: 20, default: 5 },
  /** Where a window may start: a page is read up to FETCH_LIMITS.maxChars.max characters. */
  startIndexMax: FETCH_LIMITS.maxChars.max - 1,
} as const;

const M = FETCH_LIMITS.maxChars;
const U = EXTRACT_LIMITS.urls;
const P = EXTRACT_LIMITS.maxPassages;

export const ExtractRequest = Type.Object(
  {
    urls: Type.Array(FetchRequest.properties.url, {
      minItems: U.min,
      maxItems: U.max,
      uniqueItems: true,
      description: `The pages to read: ${U.min} to ${U.max} different absolute http(s) URLs, each 1..${FETCH_LIMITS.urlMax} characters.`,
      ...rule(
        `must be a list of ${U.min} to ${U.max} different absolute http(s) URLs, each at most ${FETCH_LIMITS.urlMax} characters`,
      ),
    }),
    query: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: SEARCH_LIMITS.queryMax,
        description: `A question or keywords, 1..${SEARCH_LIMITS.queryMax} characters: each page answers with its passages most relevant to it instead of a window of its content.`,
        ...rule(`must be a string of 1 to ${SEARCH_LIMITS.queryMax} characters`),
      }),
    ),
    max_passages: Type.Optional(
      Type.Integer({
        minimum: P.min,
        maximum: P.max,
        description: `Most passages per page with query, ${P.min}..${P.max} (default ${P.default}). Only with query.`,
        ...rule(`must be an integer from ${P.min} to ${P.max}`),
      }),
    ),
    max_chars: Type.Optional(
      Type.Integer({
        minimum: M.min,
        maximum: M.max,
        description: `Size of each page's window in characters, ${M.min}..${M.max}: without query the window is returned (default ${M.default}); with query passages are chosen from it (default ${M.max}, the whole page as Scout reads it).`,
        ...rule(`must be an integer from ${M.min} to ${M.max}`),
      }),
    ),
    start_index: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: EXTRACT_LIMITS.startIndexMax,
        description:
          "Where the window starts, as a character offset into the page content (default 0): a previous answer's next_index. Only with exactly one URL.",
        ...rule(`must be an integer from 0 to ${EXTRACT_LIMITS.startIndexMax}`),
      }),
    ),
  },
  { title: 'ExtractRequest', additionalProperties: false },
);
export type ExtractRequest = Static<typeof ExtractRequest>;

export const ExtractPassage = Type.Object(
  {
    text: Type.String({ description: 'The passage: an exact slice of the page content (markdown).' }),
    start_index: Type.Integer({
      minimum: 0,
      description: 'Where the passage starts in the page content (send it as start_index to read on from there).',
    }),
    chars: Type.Integer({ minimum: 1, description: 'Length of text.' }),
  },
  { title: 'ExtractPassage', additionalProperties: false },
);
export type ExtractPassage = Static<typeof ExtractPassage>;

export const ExtractPage = Type.Object(
  {
    url: Type.String({ description: 'The URL as asked for.' }),
    ok: Type.Literal(true),
    final_url: FetchResponse.properties.final_url,
    title: Type.String(),
    content: Type.String({
      description:
        'Without query: the window, characters start_index to start_index + chars of the page content. With query: the passages in page order, separated by a blank line, or by a line "[…]" where page text lies between them; empty when no passage matches.',
    }),
    passages: Type.Optional(
      Type.Array(ExtractPassage, {
        description: 'With query only: the passages chosen from the window, in page order (the most relevant ones).',
      }),
    ),
    chars: Type.Integer({ minimum: 0, description: 'Length of content.' }),
    start_index: Type.Integer({ minimum: 0, description: 'Where the window starts in the page content.' }),
    total_chars: Type.Integer({
      minimum: 0,
      description: `Characters of main content Scout read of the page (at most ${M.max}).`,
    }),
    next_index: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description: 'Where the next window starts (send it as start_index); null when the window ends what Scout read.',
    }),
    truncated: Type.Boolean({
      description: 'The page goes on after the window: from next_index, or past what Scout reads of a page.',
    }),
    meta: FetchResponse.properties.meta,
  },
  { title: 'ExtractPage', additionalProperties: false },
);
export type ExtractPage = Static<typeof ExtractPage>;

export const ExtractFailure = Type.Object(
  {
    url: Type.String({ description: 'The URL as asked for.' }),
    ok: Type.Literal(false),
    error: Type.Object(
      {
        status: Type.Integer({ description: 'The status POST /v1/fetch would answer for this URL.' }),
        message: Type.String({ description: 'What failed and why, as POST /v1/fetch would say it.' }),
      },
      { additionalProperties: false },
    ),
  },
  { title: 'ExtractFailure', additionalProperties: false },
);
export type ExtractFailure = Static<typeof ExtractFailure>;

export const ExtractResponse = Type.Object(
  {
    request_id: Type.String(),
    results: Type.Array(Type.Union([ExtractPage, ExtractFailure]), {
      description: 'One outcome per URL, in the order of urls.',
    }),
    response_time_ms: Type.Number(),
  },
  { title: 'ExtractResponse', additionalProperties: false },
);
export type ExtractResponse = Static<typeof ExtractResponse>;
