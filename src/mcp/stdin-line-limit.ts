import type { Readable } from 'node:stream';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';

/**
 * The longest line `scout mcp` reads on stdin: one MCP message is one line, and the SDK's
 * stdio transport holds at most this much (10 MiB) of an unfinished one. Past it the SDK
 * closes the transport without a word, so `scout mcp` ended with exit 0 and nothing said;
 * this watch sees the line first and says why Scout stops.
 */
export const MAX_STDIN_LINE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/**
 * Calls `onTooLong` once when a line on `stdin` (its bytes before the newline) grows past
 * `maxBytes`; the returned function stops watching.
 */
export function watchLineLength(stdin: Readable, maxBytes: number, onTooLong: () => void): () => void {
  let line = 0;
  const onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let start = 0; ; ) {
      const newline = bytes.indexOf(10, start);
      line += (newline === -1 ? bytes.length : newline) - start;
      if (line > maxBytes) {
        stop();
        onTooLong();
        return;
      }
      if (newline === -1) return;
      line = 0;
      start = newline + 1;
    }
  };
  const stop = (): void => {
    stdin.off('data', onData);
  };
  stdin.on('data', onData);
  return stop;
}
