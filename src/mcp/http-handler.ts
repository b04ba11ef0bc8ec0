import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { rateLimitHeaders } from '../domain/rate-limit.ts';
import type { RequestContext } from '../search/search-service.ts';
import { createMcpServer } from './mcp-server.ts';
import { serviceBackend, type ServiceDeps } from './tool-backend.ts';
import { createToolCalls } from './tool-calls.ts';

export interface McpHttpDeps extends ServiceDeps {
  /** SCOUT_MCP_MAX_RESULT_TOKENS. */
  maxResultTokens: number;
}

/** Who sent one POST /mcp: already authenticated by the HTTP layer. */
export interface McpHttpCaller {
  keyId: string;
  ctx: RequestContext;
  onUnexpected?: (err: unknown) => void;
}

export interface McpHttpHandler {
  /** Answers one POST /mcp on `res` (the HTTP layer has parsed `body` and sends nothing itself). */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, caller: McpHttpCaller): Promise<void>;
}

/**
 * Streamable HTTP, stateless: a new Server and transport for every request (no session id,
 * nothing kept between requests, any Scout process can answer any request), JSON answers
 * rather than an SSE stream since a tool call sends no progress. Each tools/call is charged
 * to the caller's key as one request of its rate limit; the RateLimit-* headers of the HTTP
 * answer are those of its last tool call.
 */
export function createMcpHttpHandler(deps: McpHttpDeps): McpHttpHandler {
  return {
    async handle(req, res, body, caller) {
      const backend = serviceBackend(deps, {
        keyId: async () => caller.keyId,
        context: () => caller.ctx,
        onRateLimit: (d) => {
          if (!res.headersSent) for (const [name, value] of Object.entries(rateLimitHeaders(d))) res.setHeader(name, value);
        },
      });
      const server = createMcpServer(createToolCalls(backend, { maxResultTokens: deps.maxResultTokens, ...(caller.onUnexpected ? { onUnexpected: caller.onUnexpected } : {}) }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    },
  };
}
