import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { packageVersion } from '../cli/version.ts';
import { TOOLS } from './tool-definitions.ts';

const INSTRUCTIONS = [
  'Scout searches the web (web_search) and reads pages (fetch_page).',
  'Search first, then fetch the pages whose snippets look useful. Sponsored results are ads: they are marked [Sponsored] and never replace organic results.',
].join(' ');

/**
 * tools/call; `requestId` is the id the Server got the call under (http-handler.ts finds its
 * caller by it); `signal` aborts when the call is cancelled (its HTTP connection closed, or a
 * stdio client's notifications/cancelled), so the work stops.
 */
export type ToolCallHandler = (name: string, args: unknown, requestId: RequestId, signal: AbortSignal) => Promise<CallToolResult>;

let shared: { version: string; validator: AjvJsonSchemaValidator } | undefined;

/**
 * The SDK's low-level Server with Scout's two tools. Low level so that the tool schemas are
 * the JSON Schemas of src/schemas as they are (the high-level McpServer wants zod). One per
 * stdio process, one per Scout process for HTTP (http-handler.ts). The Server would build an
 * Ajv validator of its own each time (it only uses it for elicitation, which Scout never asks
 * for); one shared instance spares the second Server that work.
 */
export function createMcpServer(callTool: ToolCallHandler): Server {
  shared ??= { version: packageVersion(), validator: new AjvJsonSchemaValidator() };
  const server = new Server(
    { name: 'scout', title: 'Scout web search', version: shared.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: shared.validator },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => callTool(request.params.name, request.params.arguments, extra.requestId, extra.signal));
  return server;
}
