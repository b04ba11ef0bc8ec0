import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from './mcp-server.ts';
import { MAX_STDIN_LINE_BYTES, watchLineLength } from './stdin-line-limit.ts';
import type { ToolCalls } from './tool-calls.ts';
import type { Toolset } from './toolset.ts';

export interface StdioSession {
  /**
   * Settles when the session is over: with undefined when the client is gone (stdin ended or
   * closed), with the reason when Scout stopped serving it (a line over the limit, the
   * transport failing).
   */
  ended: Promise<string | undefined>;
  close(): Promise<void>;
}

/**
 * MCP over stdio for desktop clients: newline-delimited JSON-RPC on `stdin` and `stdout`.
 * `stdout` must carry protocol messages only (the caller reserves it, see
 * src/cli/protocol-stdout.ts). `toolset`: the tools offered, those `callTool` calls.
 */
export async function serveStdio(
  callTool: ToolCalls,
  stdin: Readable,
  stdout: Writable,
  toolset: Toolset,
): Promise<StdioSession> {
  const server = createMcpServer((name, args, _id, signal) => callTool(name, args, undefined, signal), toolset);
  // Twice the line limit: the watch below stops Scout at the limit, with its reason; the
  // transport's own bound (the unfinished line plus one chunk read) is then a last resort.
  const transport = new StdioServerTransport(stdin, stdout, { maxBufferSize: 2 * MAX_STDIN_LINE_BYTES });
  let settle!: (reason?: string) => void;
  const ended = new Promise<string | undefined>((resolve) => (settle = resolve));
  let closing = false;
  // The SDK reports a message it cannot parse here and carries on; a failure that closes the
  // transport is reported here just before it closes.
  let lastError: Error | undefined;
  server.onerror = (e) => (lastError = e);
  stdin.once('end', () => settle());
  stdin.once('close', () => settle());
  server.onclose = () =>
    settle(closing ? undefined : `the stdio transport closed${lastError ? `: ${lastError.message}` : ''}`);
  await server.connect(transport);
  // After connect, so the transport is reading stdin before this listener can start the flow.
  const stopWatching = watchLineLength(stdin, MAX_STDIN_LINE_BYTES, () =>
    settle(
      `a line on stdin is longer than ${MAX_STDIN_LINE_BYTES} bytes (10 MiB), the most one MCP message may take; stopped reading`,
    ),
  );
  return {
    ended,
    async close() {
      closing = true;
      // First: the transport pauses stdin only when no one else reads it.
      stopWatching();
      await server.close();
    },
  };
}
