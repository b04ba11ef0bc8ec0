import { ErrorCode, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '../domain/errors.ts';
import { createValidator } from '../schemas/body-validator.ts';
import { FETCH_LIMITS } from '../schemas/fetch.ts';
import { SearchRequest } from '../schemas/search.ts';
import { boundSearch, searchRequestFor } from './bound-search.ts';
import { FetchPageArguments } from './fetch-page-arguments.ts';
import { pagePart } from './page-part.ts';
import { ProtocolError } from './protocol-error.ts';
import { measuredResult } from './rendered-result.ts';
import type { ToolBackend } from './tool-backend.ts';
import { toolArguments } from './tool-arguments.ts';
import { FETCH_PAGE, WEB_SEARCH } from './tool-definitions.ts';
import { errorResult } from './tool-errors.ts';

export interface ToolCallOptions<C = void> {
  /** SCOUT_MCP_MAX_RESULT_TOKENS. */
  maxResultTokens: number;
  /** A failure that is not a DomainError (a bug): logged, answered as a generic error. */
  onUnexpected?: (err: unknown, caller: C) => void;
}

// The HTTP API's validators and messages, with "arguments" where HTTP says "request body".
const searchArgs = createValidator<SearchRequest>(SearchRequest, 'arguments');
const fetchArgs = createValidator<FetchPageArguments>(FetchPageArguments, 'arguments');

/**
 * tools/call: `(name, args, caller, signal)`; `caller` goes to the backend (void for one
 * fixed caller); `signal` aborts when the call is cancelled, and stops a page fetch.
 * Throws a ProtocolError (a JSON-RPC error) for an unknown tool; every other failure is a result.
 */
export type ToolCalls<C = void> = (
  name: string,
  args: unknown,
  caller: C,
  signal?: AbortSignal,
) => Promise<CallToolResult>;

/** tools/call: arguments checked, the backend called, the answer bounded and rendered. */
export function createToolCalls<C = void>(backend: ToolBackend<C>, o: ToolCallOptions<C>): ToolCalls<C> {
  const limit = o.maxResultTokens;

  async function webSearch(args: Record<string, unknown>, caller: C): Promise<CallToolResult> {
    const req = searchRequestFor(searchArgs(args), limit);
    const { body, text, json } = boundSearch(await backend.search(req, caller), limit);
    return measuredResult(text, body, json);
  }

  async function fetchPage(args: Record<string, unknown>, caller: C, signal?: AbortSignal): Promise<CallToolResult> {
    const { start_index: start = 0, max_chars: maxChars = FETCH_LIMITS.maxChars.default, url } = fetchArgs(args);
    // The whole page (as far as Scout reads one): the part is cut here, so any part can be asked for.
    const page = await backend.fetch({ url, max_chars: FETCH_LIMITS.maxChars.max }, caller, signal);
    const { body, text, json } = pagePart(page, start, maxChars, limit);
    return measuredResult(text, body, json);
  }

  // A Map, not an object: a name such as "constructor" or "__proto__" must not find what every object inherits.
  const TOOLS = new Map<
    string,
    (args: Record<string, unknown>, caller: C, signal?: AbortSignal) => Promise<CallToolResult>
  >([
    [WEB_SEARCH, webSearch],
    [FETCH_PAGE, fetchPage],
  ]);

  const failed = (e: unknown, caller: C): CallToolResult => {
    if (!(e instanceof DomainError)) o.onUnexpected?.(e, caller);
    return errorResult(e);
  };

  return async function callTool(
    name: string,
    args: unknown,
    caller: C,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    // Every call is charged first, whatever its name and arguments, as a POST /v1/search is
    // before its body is read; past the limit it is the 429 tool error like any other call.
    try {
      await backend.admit(caller);
    } catch (e) {
      return failed(e, caller);
    }
    const tool = TOOLS.get(name);
    if (tool === undefined) throw unknownTool(name, [...TOOLS.keys()]);
    try {
      return await tool(toolArguments(args), caller, signal);
    } catch (e) {
      return failed(e, caller);
    }
  };
}

/** The protocol's own answer to an unknown tool (MCP "Tools", error handling): JSON-RPC -32602. */
function unknownTool(name: string, tools: string[]): ProtocolError {
  const shown = name.length > 100 ? `${name.slice(0, 100)}…` : name;
  return new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${shown}. The tools are ${tools.join(' and ')}`);
}
