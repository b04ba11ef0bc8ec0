import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { readBatch, readPages } from '../content/read-batch.ts';
import { DomainError, isDomainError } from '../domain/errors.ts';
import { EXTRACT_LIMITS } from '../schemas/extract.ts';
import { createValidator } from '../schemas/body-validator.ts';
import { FETCH_LIMITS } from '../schemas/fetch.ts';
import { boundPages } from './bound-pages.ts';
import { boundPassages } from './bound-passages.ts';
import { FETCH_PAGES_LIMITS, FetchPagesArguments, FetchPagesResult } from './fetch-pages-schemas.ts';
import { describedSchema, jsonSchemaOf } from './json-schema.ts';
import { measuredResult } from './rendered-result.ts';
import { FETCH_PAGE, FETCH_PAGES, NULL_IS_ABSENT, READ_ONLY } from './tool-definitions.ts';
import { nullableOptionals } from './tool-arguments.ts';
import { defineTool } from './tool-spec.ts';

const U = FETCH_PAGES_LIMITS.urls;
const M = FETCH_LIMITS.maxChars;
const P = EXTRACT_LIMITS.maxPassages;

export const fetchPagesInput = nullableOptionals(
  describedSchema(FetchPagesArguments, `Arguments of fetch_pages. Only urls is required. ${NULL_IS_ABSENT}`, {
    urls: `The pages to read: ${U.min} to ${U.max} different absolute http(s) URLs (search result URLs, sponsored ones included), each at most ${FETCH_LIMITS.urlMax} characters.`,
    max_chars: `Most characters of each page's content to return, ${M.min} to ${M.max} (default ${M.default}). The whole result is also kept under a fixed token size shared by the pages, so the pages of a long list come shortened. With query: how far into each page passages are looked for (default ${M.max}, the whole page).`,
    query:
      'A question or keywords: each page then returns only its passages most relevant to it (sharing its words), in page order, with where each starts. Use it to find an answer across several pages without reading them whole.',
    max_passages: `Most passages per page with query, ${P.min} to ${P.max} (default ${P.default}).`,
  }),
);
export const fetchPagesOutput = jsonSchemaOf(FetchPagesResult);

const validArgs = createValidator<FetchPagesArguments>(FetchPagesArguments, 'arguments');
const fetchPagesArgs = (value: unknown): FetchPagesArguments => {
  const args = validArgs(value);
  if (args.max_passages !== undefined && args.query === undefined)
    throw new DomainError('invalid', 'max_passages needs query: it says how many passages per page the query keeps');
  return args;
};

/**
 * fetch_pages (Tavily's extract, Firecrawl's batch scrape, Jina's parallel read): several
 * pages at once through the same fetch service as fetch_page (address policy, fetch capacity
 * in the key's fair share, each page within the fetch deadline), one outcome per URL in their
 * order, the whole bounded (bound-pages.ts). With a query, POST /v1/extract's passages of
 * each page instead (bound-passages.ts); both read the batch with src/content/read-batch.ts.
 * Charged one request per URL, all before any is fetched: a bucket without that many refuses
 * the whole call.
 */
export const fetchPagesTool = defineTool<FetchPagesArguments>({
  name: FETCH_PAGES,
  role: 'read',
  definition: (setting): Tool => ({
    name: FETCH_PAGES,
    title: 'Fetch pages',
    description: [
      `Read ${U.min} to ${U.max} web pages at once (HTML, PDF, feed or text), each as its main content in markdown, without navigation and ads.`,
      `Use it to read several search results in one call${setting.offered.has(FETCH_PAGE) ? ' instead of one fetch_page call each' : ''}.`,
      'Returns one section per URL in the order given: the page, or why it could not be read (a failed page does not fail the others).',
      'With query, each page returns only its passages most relevant to the query instead of its content.',
      `The pages share one fixed result size, so the more URLs, the shorter each page; a shortened page says so${setting.offered.has(FETCH_PAGE) ? ' and gives the start_index to read on with fetch_page' : ''}.`,
      `Each URL counts as one request against the rate limit (${U.max} URLs: ${U.max} requests).`,
      'Private, loopback and reserved addresses are refused.',
    ].join(' '),
    inputSchema: fetchPagesInput as Tool['inputSchema'],
    outputSchema: fetchPagesOutput as Tool['outputSchema'],
    annotations: { title: 'Fetch pages', ...READ_ONLY },
  }),
  parse: fetchPagesArgs,
  cost: (args) => args.urls.length,
  async run(args, { backend, caller, signal, setting, onUnexpected }) {
    // Whole, as fetch_page reads it, so total_chars and the start_index to read on are exact.
    const read = (url: string) => backend.fetch({ url, max_chars: M.max }, caller, signal);
    const unexpected = (error: unknown) => {
      if (!isDomainError(error)) onUnexpected(error);
    };
    const canReadOn = setting.offered.has(FETCH_PAGE);
    if (args.query !== undefined) {
      const maxPassages = args.max_passages ?? P.default;
      const window = { startIndex: 0, maxChars: args.max_chars ?? M.max, query: args.query, maxPassages };
      const outcomes = await readBatch(args.urls, read, window, unexpected);
      const { body, text, json } = boundPassages(outcomes, args.query, {
        maxPassages,
        limit: setting.maxResultTokens,
        canReadOn,
      });
      return measuredResult(text, body, json);
    }
    const outcomes = await readPages(args.urls, read, unexpected);
    const { body, text, json } = boundPages(outcomes, {
      maxChars: args.max_chars ?? M.default,
      limit: setting.maxResultTokens,
      canReadOn,
    });
    return measuredResult(text, body, json);
  },
});
