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
