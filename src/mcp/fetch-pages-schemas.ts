import { Type, type Static } from '@sinclair/typebox';
import { ExtractPassage, ExtractRequest } from '../schemas/extract.ts';
import { FETCH_LIMITS, FetchRequest, FetchResponse } from '../schemas/fetch.ts';
import { rule } from '../schemas/rule.ts';

/**
 * fetch_pages' arguments and result. The URLs and max_chars are POST /v1/fetch's own (the same
 * limits and messages), max_chars applying to each page. At most 10 URLs: their parts share one
 * result bound, and past ten each page gets too little of it to be worth reading (Tavily's
 * /extract takes 20 for a program, not a model's context). `query` and `max_passages` are
 * POST /v1/extract's: each page then answers with its passages most relevant to the query.
 */
export const FETCH_PAGES_LIMITS = { urls: { min: 1, max: 10 } } as const;

export const FetchPagesArguments = Type.Object(
  {
    urls: Type.Array(FetchRequest.properties.url, {
      minItems: FETCH_PAGES_LIMITS.urls.min,
      maxItems: FETCH_PAGES_LIMITS.urls.max,
      uniqueItems: true,
      ...rule(
        `must be a list of ${FETCH_PAGES_LIMITS.urls.min} to ${FETCH_PAGES_LIMITS.urls.max} different absolute http(s) URLs, each at most ${FETCH_LIMITS.urlMax} characters`,
      ),
    }),
    max_chars: FetchRequest.properties.max_chars,
    query: ExtractRequest.properties.query,
    max_passages: ExtractRequest.properties.max_passages,
  },
  { title: 'FetchPagesArguments', additionalProperties: false },
);
export type FetchPagesArguments = Static<typeof FetchPagesArguments>;

/** A failure as /v1/fetch would answer it: its status and Scout's message. */
export const ToolFailure = Type.Object(
  {
    status: Type.Integer({ description: 'The HTTP status /v1 would answer.' }),
    message: Type.String({ description: "Scout's message: what failed and why." }),
  },
  { additionalProperties: false },
);

export const PageRead = Type.Object(
  {
    url: Type.String({ description: 'The URL as asked for.' }),
    ok: Type.Literal(true),
    final_url: FetchResponse.properties.final_url,
    title: Type.String(),
    content: Type.String({
      description: 'Main content as markdown: characters start_index to start_index + chars of it.',
    }),
    start_index: Type.Integer({ minimum: 0, description: 'Where this part starts in the page content.' }),
    chars: Type.Integer({ minimum: 0, description: 'Length of content.' }),
    total_chars: Type.Integer({
      minimum: 0,
      description: `Characters of main content Scout read of the page (at most ${FETCH_LIMITS.maxChars.max}).`,
    }),
    next_index: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: "Where the rest starts (fetch_page's start_index); null when this part ends what Scout read.",
    }),
    truncated: Type.Boolean({
      description: 'The page goes on after this part: from next_index, or past what Scout reads of a page.',
    }),
    meta: FetchResponse.properties.meta,
    passages: Type.Optional(
      Type.Array(ExtractPassage, {
        description: 'With query only: the passages most relevant to it, in page order (content holds them joined).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PageRead = Static<typeof PageRead>;

export const PageFailed = Type.Object(
  { url: Type.String({ description: 'The URL as asked for.' }), ok: Type.Literal(false), error: ToolFailure },
  { additionalProperties: false },
);
export type PageFailed = Static<typeof PageFailed>;

export const FetchPagesResult = Type.Object(
  {
    results: Type.Array(Type.Union([PageRead, PageFailed]), {
      description: 'One outcome per URL, in the order of urls.',
    }),
  },
  { title: 'FetchPagesResult', additionalProperties: false },
);
export type FetchPagesResult = Static<typeof FetchPagesResult>;
