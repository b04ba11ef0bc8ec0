import { int, list, optionalUrl, type Parser } from './parsers.ts';
import { s } from './setting.ts';

/**
 * SCOUT_MCP_ALLOWED_ORIGINS: browser origins (scheme://host[:port]) that may call /mcp besides
 * Scout's own. Each is normalised by URL, so "https://App.example:443/" matches the
 * "https://app.example" a browser sends.
 */
const origins: Parser<string[]> = (raw) =>
  list(raw).map((o) => {
    let u: URL;
    try {
      u = new URL(o);
    } catch {
      throw new Error(`must be a comma-separated list of origins such as https://app.example.com, got "${o}"`);
    }
    if (
      (u.protocol !== 'http:' && u.protocol !== 'https:') ||
      u.pathname !== '/' ||
      u.search !== '' ||
      u.hash !== '' ||
      u.username !== ''
    ) {
      throw new Error(`must list origins only (scheme://host[:port], no path), got "${o}"`);
    }
    return u.origin;
  });

/**
 * SCOUT_MCP_TOOLS: tool names, comma-separated, or `all`. Only their form is checked here (this
 * room knows no tools): which names exist is src/mcp's business, which refuses an unknown one
 * when the server or `scout mcp` starts (src/mcp/tool-selection.ts).
 */
const toolNames: Parser<string[]> = (raw) => {
  const names = list(raw).map((n) => n.toLowerCase());
  for (const n of names) {
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(n))
      throw new Error(
        `must be a comma-separated list of MCP tool names such as web_search,fetch_page, or all; got "${n}"`,
      );
  }
  if (names.length === 0) throw new Error('must name at least one MCP tool, or be all');
  return names;
};

/** A key pasted into a client's config often carries a stray space or newline. */
const optionalKey: Parser<string | undefined> = (raw) => (raw.trim() === '' ? undefined : raw.trim());

/** The MCP transports (docs/mcp.md), spread into the main table by settings.ts. */
export const mcpSettings = {
  mcpMaxResultTokens: s(
    'SCOUT_MCP_MAX_RESULT_TOKENS',
    int(2000, 20000),
    '8000',
    'Largest MCP tool result, in o200k_base tokens (its markdown text and its structured content together); longer results are shortened and say how to get the rest. 2000 to 20000.',
  ),
  mcpTools: s(
    'SCOUT_MCP_TOOLS',
    toolNames,
    'web_search,fetch_page',
    'MCP tools offered when a client selects none (POST /mcp without ?tools=, `scout mcp` without --tools): comma-separated tool names (docs/mcp.md, "Choosing the tools", lists them), or all. Each tool offered takes room in a model\'s context; an unknown name stops the start.',
  ),
  mcpAllowedOrigins: s(
    'SCOUT_MCP_ALLOWED_ORIGINS',
    origins,
    '',
    "Comma-separated browser origins (e.g. https://app.example.com) allowed to call /mcp besides SCOUT_PUBLIC_URL's and loopback ones; a request with any other Origin header is refused with 403.",
  ),
  scoutUrl: s(
    'SCOUT_URL',
    optionalUrl,
    '',
    '`scout mcp` only: base URL of a running Scout whose HTTP API the stdio tools call. Unset: `scout mcp` runs Scout in-process on SCOUT_DATA_DIR.',
  ),
  scoutApiKey: s(
    'SCOUT_API_KEY',
    optionalKey,
    '',
    '`scout mcp` only: the API key its tools are charged to (sent to SCOUT_URL, or checked against the local key store). Required.',
  ),
} as const;
