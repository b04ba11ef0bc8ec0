import { DomainError } from '../domain/errors.ts';
import { TOOL_CATALOG } from './tool-catalog.ts';

/**
 * Which tools a server offers, from a comma-separated list of names or `all`: the `tools`
 * parameter of POST /mcp, `scout mcp --tools`, or SCOUT_MCP_TOOLS. Names are trimmed and
 * taken in any case; a repeated one counts once; the tools come in the catalog's order,
 * whatever the list's. An unknown name is refused with the names there are, never ignored:
 * a client that asked for a tool and silently got fewer would be told nothing.
 */

export const TOOL_NAMES: readonly string[] = TOOL_CATALOG.map((t) => t.name);

/** "a, b, c and d": how a message lists names. */
export function listNames(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The names selected by `raw` (one list, or several whose names are joined), in catalog
 * order. `where` names the source in a refusal ("tools", "--tools", "SCOUT_MCP_TOOLS").
 * Throws DomainError 'invalid'.
 */
export function selectTools(raw: string | readonly string[], where: string): string[] {
  const given = (typeof raw === 'string' ? [raw] : raw)
    .flatMap((list) => list.split(','))
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');
  const valid = `the tools are ${listNames(TOOL_NAMES)}, or all for every one`;
  if (given.length === 0) throw new DomainError('invalid', `${where} names no tool; ${valid}`);
  if (given.includes('all')) return [...TOOL_NAMES];
  const unknown = given.filter((n) => !TOOL_NAMES.includes(n));
  if (unknown.length > 0) {
    const shown = unknown.map((n) => `"${n.length > 60 ? `${n.slice(0, 60)}…` : n}"`);
    throw new DomainError(
      'invalid',
      `${where} names ${unknown.length === 1 ? 'an unknown tool' : 'unknown tools'} ${listNames(shown.slice(0, 5))}; ${valid}`,
    );
  }
  return TOOL_NAMES.filter((n) => given.includes(n));
}
