import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { packageVersion } from '../domain/package-version.ts';
import { ProtocolError } from './protocol-error.ts';
import type { Toolset } from './toolset.ts';

/**
 * tools/call; `requestId` is the id the Server got the call under (http-handler.ts finds its
 * caller by it); `signal` aborts when the call is cancelled (its HTTP connection closed, or a
 * stdio client's notifications/cancelled), so the work stops.
 */
export type ToolCallHandler = (
  name: string,
  args: unknown,
  requestId: RequestId,
  signal: AbortSignal,
) => Promise<CallToolResult>;

let shared: { version: string; validator: AjvJsonSchemaValidator } | undefined;

/**
 * The SDK's low-level Server offering `toolset` (its tools/list answer and instructions). Low
 * level so that the tool schemas are the JSON Schemas of src/schemas as they are (the
 * high-level McpServer wants zod). One per stdio process, one per tool selection in use in a
 * Scout process for HTTP (http-handler.ts). The Server would build an
 * Ajv validator of its own each time (it only uses it for elicitation, which Scout never asks
 * for); one shared instance spares the second Server that work.
 */
export function createMcpServer(callTool: ToolCallHandler, toolset: Toolset): Server {
  shared ??= { version: packageVersion(), validator: new AjvJsonSchemaValidator() };
  const server = new Server(
    { name: 'scout', title: 'Scout web search', version: shared.version },
    {
      capabilities: { tools: {} },
      instructions: toolset.instructions,
      jsonSchemaValidator: shared.validator,
    },
  );
  const tools = toolset.list;
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  // Protocol's registration, not Server's: Server's checks a tools/call against the SDK's
  // schema first and answers `arguments` that are not an object (null, [], "text") with a
  // protocol error quoting the schema check. Scout takes any `arguments` and answers them as
  // a tool error naming the problem (tool-arguments.ts); the result is still checked here,
  // as Server's registration would.
  Protocol.prototype.setRequestHandler.call(server, AnyArgumentsCall, async (request, extra) => {
    const { name, arguments: args } = (request.params ?? {}) as { name?: unknown; arguments?: unknown };
    if (typeof name !== 'string')
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        'Invalid tools/call request: params.name must be a string, the name of the tool',
      );
    const checked = CallToolResultSchema.safeParse(await callTool(name, args, extra.requestId, extra.signal));
    if (!checked.success)
      throw new ProtocolError(ErrorCode.InternalError, 'Scout built a tools/call result that is not valid MCP');
    return checked.data;
  });
  return server;
}

/** tools/call with `name` and `arguments` of any type (or none), each checked by the handler instead. */
const AnyArgumentsCall = CallToolRequestSchema.extend({
  params: CallToolRequestParamsSchema.omit({ name: true, arguments: true }).passthrough().optional(),
});
