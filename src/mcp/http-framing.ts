import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import {
  isInitializeRequest,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * The HTTP side of POST /mcp, as the SDK's stateless Streamable HTTP transport with JSON
 * answers does it (server/webStandardStreamableHttp.js, handlePostRequest): the same checks
 * in the same order, the same statuses and JSON-RPC error bodies. Only the framing is
 * Scout's; the JSON-RPC messages are checked with the SDK's own schema and handled by the
 * SDK's Server (exchange-transport.ts). Kept in step with the SDK version in package.json.
 * One check is Scout's own, stricter than the SDK's: batches (below).
 */

/**
 * JSON-RPC batches are in MCP 2025-03-26 only: 2025-06-18 removed them, and the revisions
 * after it have none. A POST that names such a revision in MCP-Protocol-Version may not be
 * a batch; one without the header (a 2025-03-26 client, which the protocol says to assume)
 * or naming an older one may send at most MAX_BATCH_MESSAGES messages. The SDK allows 100:
 * 100 tools/list in about 5 KB were answered with about 700 KB, and only tool calls are
 * charged. Ten keep a POST to the work and the answer of ten single ones.
 */
export const MAX_BATCH_MESSAGES = 10;
const FIRST_WITHOUT_BATCHES = '2025-06-18';

/** What POST /mcp answers: a status and a JSON text, or no body at all (202). */
export interface McpHttpAnswer {
  status: number;
  body?: string;
}

/** Request headers as Node gives them (lower-case names). */
export type McpHttpHeaders = Record<string, string | string[] | undefined>;

export type Framed =
  | { ok: true; messages: JSONRPCMessage[]; hasRequests: boolean }
  | { ok: false; answer: McpHttpAnswer };

/** The SDK's createJsonErrorResponse: a JSON-RPC error with id null. */
export const refusal = (status: number, code: number, message: string): McpHttpAnswer => ({
  status,
  body: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }),
});

const refused = (status: number, code: number, message: string): Framed => ({
  ok: false,
  answer: refusal(status, code, message),
});

// One value, as the Web Headers the SDK reads would give it: repeated fields joined with ", ".
const header = (headers: McpHttpHeaders, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

// A cheap test first: the schema check alone builds a failure for every other message.
const isInitialize = (m: JSONRPCMessage): boolean =>
  'method' in m && m.method === 'initialize' && isInitializeRequest(m);

/** Checks one POST's headers and parsed body; the JSON-RPC messages it carries, or the refusal to answer. */
export function frame(headers: McpHttpHeaders, body: unknown): Framed {
  const accept = header(headers, 'accept');
  // A substring test, as the SDK's: Accept is a list.
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    return refused(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
  }
  if (!isJsonContentType(header(headers, 'content-type'))) {
    return refused(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  }
  // The HTTP layer parsed the body; none at all is what the SDK's own reader fails to parse.
  if (body === undefined) return refused(400, -32700, 'Parse error: Invalid JSON');
  if (Array.isArray(body)) {
    // Revisions are dates, so they compare as strings.
    const version = header(headers, 'mcp-protocol-version');
    if (version !== undefined && version >= FIRST_WITHOUT_BATCHES) {
      return refused(
        400,
        -32600,
        `Invalid Request: MCP ${version} has no JSON-RPC batches (removed in ${FIRST_WITHOUT_BATCHES}); send one message per POST`,
      );
    }
    if (body.length > MAX_BATCH_MESSAGES) {
      return refused(
        400,
        -32600,
        `Invalid Request: a batch may hold at most ${MAX_BATCH_MESSAGES} messages; send the others in further POSTs`,
      );
    }
  }
  let messages: JSONRPCMessage[];
  try {
    messages = Array.isArray(body)
      ? body.map((m) => JSONRPCMessageSchema.parse(m))
      : [JSONRPCMessageSchema.parse(body)];
  } catch {
    return refused(400, -32700, 'Parse error: Invalid JSON-RPC message');
  }
  if (messages.some(isInitialize)) {
    if (messages.length > 1) return refused(400, -32600, 'Invalid Request: Only one initialization request is allowed');
  } else {
    // Stateless: no session to check; the protocol version header is, after initialization.
    const version = header(headers, 'mcp-protocol-version');
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      const supported = SUPPORTED_PROTOCOL_VERSIONS.join(', ');
      return refused(
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${supported})`,
      );
    }
  }
  // The schema is strict, so a valid message with a method and an id is a request.
  return { ok: true, messages, hasRequests: messages.some((m) => 'method' in m && 'id' in m) };
}
