import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * One MCP tool call as a single plain HTTP request, for benchmarks and scripts: the server
 * is stateless, so no initialize round trip or session is needed. Scout answers JSON (not
 * an SSE stream); the Accept header must still list both types, as the transport requires.
 */
export const MCP_POST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
} as const;

/** The JSON-RPC body of tools/call. */
export const toolCallBody = (id: number | string, name: string, args: Record<string, unknown>): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

export interface ToolCallOverHttp {
  /** Scout's base URL (the /mcp endpoint is under it). */
  baseUrl: string;
  apiKey: string;
  name: string;
  arguments: Record<string, unknown>;
  id?: number | string;
  fetch?: typeof fetch;
}

/** POSTs tools/call to <baseUrl>/mcp; the tool's result, or an Error for an HTTP or JSON-RPC failure. */
export async function callToolOverHttp(o: ToolCallOverHttp): Promise<CallToolResult> {
  const res = await (o.fetch ?? fetch)(`${o.baseUrl}/mcp`, {
    method: 'POST',
    headers: { ...MCP_POST_HEADERS, authorization: `Bearer ${o.apiKey}` },
    body: toolCallBody(o.id ?? 1, o.name, o.arguments),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST /mcp answered HTTP ${res.status}: ${text.slice(0, 300)}`);
  const answer = JSON.parse(text) as { result?: CallToolResult; error?: { code: number; message: string } };
  if (answer.result === undefined)
    throw new Error(`POST /mcp answered a JSON-RPC error: ${answer.error?.message ?? text.slice(0, 300)}`);
  return answer.result;
}
