import { countTokens, tokenizableEnd } from '../content/token-count.ts';

/**
 * Tokens a model reads in a text, o200k_base, as max_content_tokens counts them. Past the
 * first tokenizer piece too long to count cheaply (token-count.ts: only hostile text has
 * one) each UTF-16 unit is taken as 3 tokens, the most one can cost, so the figure never
 * falls below the true count and counting stays linear.
 */
export function textTokens(text: string): number {
  const end = tokenizableEnd(text);
  return countTokens(end === text.length ? text : text.slice(0, end)) + 3 * (text.length - end);
}

/** The hard ceiling of any tool result, in tokens, whatever SCOUT_MCP_MAX_RESULT_TOKENS says. */
export const RESULT_TOKENS_CEILING = 20_000;

/**
 * UTF-8 bytes per o200k_base token below which a text is not counted: English prose runs at
 * about 4.5, code and URLs near 3.5, CJK near 3; 4 makes the bound "about" the setting.
 */
const BYTES_PER_TOKEN = 4;
/** Share of the bound under which an estimate is trusted; nearer the bound, tokens are counted. */
const ESTIMATE_SHARE = 0.75;

/**
 * Tokens of a whole tool result, as far as the bound needs them: its markdown text and its
 * structured content as JSON (a client may hand the model either or both, so the bound
 * covers both together). The tokenizer costs about 2 ms per search result on this machine,
 * ten times the search itself (bench:mcp), so it runs only where it decides something:
 * - at most `limit` bytes: fits for certain (a byte-level BPE token covers at least a byte);
 * - at most the 20k-token ceiling in bytes and three quarters of `limit` at 4 bytes a token:
 *   taken to fit (text that dense in tokens is rare; the setting is "about" so many tokens,
 *   and the ceiling holds for any text);
 * - otherwise, near the bound or over it, counted exactly.
 */
export function resultTokens(text: string, structured: unknown, limit = 0): number {
  return jsonResultTokens(text, JSON.stringify(structured), limit);
}

/** resultTokens with the structured content already serialized (`json`), as the result will carry it. */
export function jsonResultTokens(text: string, json: string, limit = 0): number {
  const bytes = Buffer.byteLength(text) + Buffer.byteLength(json);
  if (bytes <= limit) return bytes;
  const estimate = Math.ceil(bytes / BYTES_PER_TOKEN);
  if (bytes <= RESULT_TOKENS_CEILING && estimate <= limit * ESTIMATE_SHARE) return estimate;
  return textTokens(text) + textTokens(json);
}
