import { Type, type Static } from '@sinclair/typebox';
import { FETCH_LIMITS, FetchRequest } from '../schemas/fetch.ts';
import { rule } from '../schemas/rule.ts';

/**
 * fetch_page's arguments: POST /v1/fetch's own fields (the same schemas, so the same limits
 * and messages) plus `start_index`, where a continuation starts, as the reference fetch MCP
 * server has it. A page is read up to FETCH_LIMITS.maxChars.max characters, so no part can
 * start beyond that.
 */
export const FetchPageArguments = Type.Object(
  {
    ...FetchRequest.properties,
    start_index: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: FETCH_LIMITS.maxChars.max - 1,
        default: 0,
        description: 'Character offset in the page content where this part starts.',
        ...rule(`must be an integer from 0 to ${FETCH_LIMITS.maxChars.max - 1}`),
      }),
    ),
  },
  { title: 'FetchPageArguments', additionalProperties: false },
);
export type FetchPageArguments = Static<typeof FetchPageArguments>;
