import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { must } from '../domain/must.ts';
import { TOOL_CATALOG } from './tool-catalog.ts';
import type { SearchScope } from './tool-definitions.ts';
import type { AnyTool, ToolSetting } from './tool-spec.ts';

/** The tools one MCP server offers: what tools/list answers, what tools/call finds, the instructions. */
export interface Toolset {
  readonly setting: ToolSetting;
  /** tools/list's answer. */
  readonly list: Tool[];
  /** The server's instructions (initialize): what its tools do, how to use them together. */
  readonly instructions: string;
  /** The tool of that name, when offered. */
  get(name: string): AnyTool | undefined;
  /** The names offered, in order. */
  readonly names: readonly string[];
}

/** The tools named (tool-selection.ts has checked them), web_search and parallel_search described for `scope`. */
export function createToolset(names: readonly string[], scope: SearchScope, maxResultTokens: number): Toolset {
  const tools = TOOL_CATALOG.filter((t) => names.includes(t.name));
  const setting: ToolSetting = { scope, offered: new Set(tools.map((t) => t.name)), maxResultTokens };
  // A Map, not an object: a name such as "constructor" or "__proto__" must not find what every object inherits.
  const byName = new Map(tools.map((t) => [t.name, t]));
  return {
    setting,
    list: tools.map((t) => t.definition(setting)),
    instructions: instructionsFor(tools, scope),
    get: (name) => byName.get(name),
    names: tools.map((t) => t.name),
  };
}

function instructionsFor(tools: readonly AnyTool[], scope: SearchScope): string {
  const named = (role: AnyTool['role']) =>
    tools
      .filter((t) => t.role === role)
      .map((t) => t.name)
      .join(', ');
  const [search, read] = [named('search'), named('read')];
  const does: string[] = [];
  if (search !== '')
    does.push(
      scope === 'web' ? `searches the web (${search})` : `searches this server's own index, not the web (${search})`,
    );
  if (read !== '') does.push(`reads pages (${read})`);
  const joined = does.join(scope === 'local' && does.length > 1 ? ', and ' : ' and ');
  const lines = [`Scout ${must(joined === '' ? undefined : joined, 'a tool offered')}.`];
  if (search !== '' && read !== '') lines.push('Search first, then fetch the pages whose snippets look useful.');
  if (search !== '')
    lines.push('Sponsored results are ads: they are marked [Sponsored] and never replace organic results.');
  return lines.join(' ');
}
