import { ErrorCode, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '../domain/errors.ts';
import { ProtocolError } from './protocol-error.ts';
import type { ToolBackend } from './tool-backend.ts';
import { toolArguments } from './tool-arguments.ts';
import { errorResult } from './tool-errors.ts';
import { listNames, TOOL_NAMES } from './tool-selection.ts';
import type { Toolset } from './toolset.ts';

export interface ToolCallOptions<C = void> {
  /** The tools offered (toolset.ts): any other name is an unknown tool. */
  toolset: Toolset;
  /** A failure that is not a DomainError (a bug): logged, answered as a generic error. */
  onUnexpected?: (err: unknown, caller: C) => void;
}

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

type Parsed = { ok: true; args: unknown; cost: number } | { ok: false; error: unknown };

/** tools/call: arguments checked, the call charged, the backend called, the answer bounded and rendered. */
export function createToolCalls<C = void>(backend: ToolBackend<C>, o: ToolCallOptions<C>): ToolCalls<C> {
  const { toolset } = o;

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
    const tool = toolset.get(name);
    let parsed: Parsed | undefined;
    if (tool !== undefined) {
      try {
        const checked = tool.parse(toolArguments(args));
        parsed = { ok: true, args: checked, cost: tool.cost?.(checked) ?? 1 };
      } catch (error) {
        parsed = { ok: false, error };
      }
    }
    // Every call is charged before it does any work, whatever its name and arguments, as a
    // POST /v1/search is before its body is read: one request, or one per page or query of a
    // valid call that does several (all at once, or the call is refused); past the limit it
    // is the 429 tool error like any other call.
    try {
      await backend.admit(caller, parsed?.ok === true ? parsed.cost : 1);
    } catch (e) {
      return failed(e, caller);
    }
    if (tool === undefined || parsed === undefined) throw unknownTool(name, toolset.names);
    if (!parsed.ok) return failed(parsed.error, caller);
    try {
      return await tool.run(parsed.args, {
        backend,
        caller,
        signal,
        setting: toolset.setting,
        onUnexpected: (err) => o.onUnexpected?.(err, caller),
      });
    } catch (e) {
      return failed(e, caller);
    }
  };
}

/** The protocol's own answer to an unknown tool (MCP "Tools", error handling): JSON-RPC -32602. */
function unknownTool(name: string, offered: readonly string[]): ProtocolError {
  const shown = name.length > 100 ? `${name.slice(0, 100)}…` : name;
  const tools = offered.length === 1 ? `The only tool is ${offered.join('')}` : `The tools are ${listNames(offered)}`;
  // A tool Scout has but this server was not asked to offer: say where the selection is made.
  const why = TOOL_NAMES.includes(name)
    ? ` (${name} is not among the tools selected for this server: ?tools= on the MCP URL, scout mcp --tools, or SCOUT_MCP_TOOLS)`
    : '';
  return new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${shown}. ${tools}${why}`);
}
