import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createValidator } from '../schemas/body-validator.ts';
import { FETCH_LIMITS, FetchResponse } from '../schemas/fetch.ts';
import { FetchPageArguments } from './fetch-page-arguments.ts';
import { describedSchema, jsonSchemaOf } from './json-schema.ts';
import { pagePart } from './page-part.ts';
import { measuredResult } from './rendered-result.ts';
import { FETCH_PAGE, NULL_IS_ABSENT, READ_ONLY } from './tool-definitions.ts';
import { nullableOptionals } from './tool-arguments.ts';
import { defineTool } from './tool-spec.ts';

export const fetchPageInput = nullableOptionals(
  describedSchema(FetchPageArguments, `Arguments of fetch_page. Only url is required. ${NULL_IS_ABSENT}`, {
    url: `Absolute http(s) URL of the page (a web_search result URL, sponsored ones included), at most ${FETCH_LIMITS.urlMax} characters.`,
    max_chars: `Most characters of page content to return in this call, ${FETCH_LIMITS.maxChars.min} to ${FETCH_LIMITS.maxChars.max} (default ${FETCH_LIMITS.maxChars.default}). The result is also kept under a fixed token size, so a long page comes in parts.`,
    start_index:
      'Where to start reading, as a character offset into the page content (default 0). When a result says more content follows, call again with the start_index it gives.',
  }),
);
export const fetchPageOutput = jsonSchemaOf(FetchResponse);

const fetchArgs = createValidator<FetchPageArguments>(FetchPageArguments, 'arguments');

/** fetch_page: POST /v1/fetch read whole, one part of it returned (page-part.ts). */
export const fetchPageTool = defineTool<FetchPageArguments>({
  name: FETCH_PAGE,
  role: 'read',
  definition: (): Tool => ({
    name: FETCH_PAGE,
    title: 'Fetch page',
    description: [
      'Read one web page (HTML, PDF, feed or text) and get its main content as markdown, without navigation and ads.',
      'A long page comes in parts: the result says when more follows and which start_index to call with next.',
      'Private, loopback and reserved addresses are refused.',
    ].join(' '),
    inputSchema: fetchPageInput as Tool['inputSchema'],
    outputSchema: fetchPageOutput as Tool['outputSchema'],
    annotations: { title: 'Fetch page', ...READ_ONLY },
  }),
  parse: fetchArgs,
  async run(args, { backend, caller, signal, setting }) {
    const { start_index: start = 0, max_chars: maxChars = FETCH_LIMITS.maxChars.default, url } = args;
    // The whole page (as far as Scout reads one): the part is cut here, so any part can be asked for.
    const page = await backend.fetch({ url, max_chars: FETCH_LIMITS.maxChars.max }, caller, signal);
    const { body, text, json } = pagePart(page, start, maxChars, setting.maxResultTokens);
    return measuredResult(text, body, json);
  },
});
