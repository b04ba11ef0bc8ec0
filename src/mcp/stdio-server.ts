import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from './mcp-server.ts';
import type { ToolCalls } from './tool-calls.ts';

export interface StdioSession {
  /** Settles when the client is gone: stdin ended or closed, or the transport closed. */
  ended: Promise<void>;
  close(): Promise<void>;
}

/**
 * MCP over stdio for desktop clients: newline-delimited JSON-RPC on `stdin` and `stdout`.
 * `stdout` must carry protocol messages only (the caller reserves it, see
 * src/cli/protocol-stdout.ts).
 */
export async function serveStdio(callTool: ToolCalls, stdin: Readable, stdout: Writable): Promise<StdioSession> {
  const server = createMcpServer((name, args, _id, signal) => callTool(name, args, undefined, signal));
  const transport = new StdioServerTransport(stdin, stdout);
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  stdin.once('end', () => end());
  stdin.once('close', () => end());
  server.onclose = () => end();
  await server.connect(transport);
  return {
    ended,
    async close() {
      await server.close();
    },
  };
}
