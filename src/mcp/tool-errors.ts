import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isDomainError, type ErrorKind } from '../domain/errors.ts';
import { STATUS_OF } from '../domain/status-table.ts';

/**
 * Failures as tool results (isError: true) rather than protocol errors, so the model reads
 * what went wrong and what to do next: Scout's own message (it already names the field or
 * the cause), its HTTP status, and the advice of that status.
 */
const ADVICE: Partial<Record<ErrorKind, (retryAfterS?: number) => string>> = {
  invalid: () => 'Fix the arguments named above and call again.',
  unauthorized: () =>
    'The API key configured for this MCP server is missing or not valid; the user must set a valid Scout API key. Retrying will not help.',
  forbidden: () => 'Scout only fetches public http(s) addresses; do not retry this URL.',
  not_found: () => 'Check the URL.',
  payload_too_large: () => 'Send shorter arguments.',
  unsupported_media: () =>
    'fetch_page reads HTML, PDF, feeds and text; this content type cannot be read. Try another source.',
  rate_limited: (s) => `Rate limited: wait ${s ?? 1} s, then call again.`,
  upstream: () => 'The source failed; try another URL or query, or retry later.',
  unavailable: (s) =>
    s !== undefined && s > 3600
      ? `Do not retry: this will not change for about ${Math.round(s / 3600)} hours.`
      : `Retry in ${s ?? 5} s.`,
  timeout: () => 'The page took too long; retry once or use another source.',
};

/** A failure as the model reads it: `Error <status>: <message>. <advice>`. */
export function errorText(e: unknown, requestId?: string): string {
  if (isDomainError(e)) {
    const advice = ADVICE[e.kind]?.(e.retryAfterS);
    return `Error ${STATUS_OF[e.kind]}: ${e.message.replace(/\.$/, '')}.${advice ? ` ${advice}` : ''}`;
  }
  const id = requestId === undefined ? '' : ` (request id ${requestId})`;
  return `Error 500: internal error in Scout${id}; retry later.`;
}

/** A failure's status and Scout's own message, for structured content (a bug is a bare 500). */
export function errorFields(e: unknown): { status: number; message: string } {
  return isDomainError(e)
    ? { status: STATUS_OF[e.kind], message: e.message }
    : { status: 500, message: 'internal error in Scout' };
}

export function errorResult(e: unknown, requestId?: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: errorText(e, requestId) }] };
}
