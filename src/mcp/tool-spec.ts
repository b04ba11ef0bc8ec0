import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolBackend } from './tool-backend.ts';
import type { SearchScope } from './tool-definitions.ts';

/**
 * One MCP tool: how tools/list shows it and what tools/call does. Every tool is one ToolSpec
 * in tool-catalog.ts; the selection (tool-selection.ts), tools/list, tools/call, the rate
 * limit and the docs' list of names all come from there.
 */

/** What a tool is shown and run with: the server it is part of. */
export interface ToolSetting {
  /** What web_search and parallel_search search (tool-definitions.ts). */
  scope: SearchScope;
  /** Names of the tools offered together (this one included): a tool names only tools the model has. */
  offered: ReadonlySet<string>;
  /** SCOUT_MCP_MAX_RESULT_TOKENS: the bound of every result. */
  maxResultTokens: number;
}

/** One tools/call under way. */
export interface ToolRun<C> {
  backend: ToolBackend<C>;
  caller: C;
  /** Aborts when the call is cancelled: the fetches stop. */
  signal?: AbortSignal | undefined;
  setting: ToolSetting;
  /** A failure of one page or query that is not a DomainError (a bug): logged, answered as a 500 there. */
  onUnexpected(err: unknown): void;
}

export interface ToolSpec<A> {
  readonly name: string;
  /** What it does, for the server's instructions (toolset.ts): it searches, or it reads pages. */
  readonly role: 'search' | 'read';
  definition(setting: ToolSetting): Tool;
  /** The call's arguments (toolArguments already applied), checked: a DomainError 'invalid' when they are not. */
  parse(args: Record<string, unknown>): A;
  /** Requests of the key's rate limit the call takes, all at once; 1 when left out. */
  cost?(args: A): number;
  run<C>(args: A, run: ToolRun<C>): Promise<CallToolResult>;
}

/** A tool of any arguments, as the catalog holds it (parse's output goes only to its own cost and run). */
export type AnyTool = ToolSpec<unknown>;

export const defineTool = <A>(spec: ToolSpec<A>): AnyTool => spec as unknown as AnyTool;
