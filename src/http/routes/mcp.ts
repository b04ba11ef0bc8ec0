import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import type { McpHttpHandler } from '../../mcp/http-handler.ts';
import type { OriginPolicy } from '../../mcp/origin-policy.ts';
import { rawErrorResponse } from '../raw-error-response.ts';

export interface McpRouteDeps {
  handler: McpHttpHandler;
  allowOrigin: OriginPolicy;
}

/**
 * POST /mcp: MCP over Streamable HTTP (docs/mcp.md). Authenticated like /v1/search; rate
 * limited per tools/call inside (auth.ts, 'per-tool-call'). GET and DELETE are 405 with
 * Allow: POST (the 404/405 handler), as on every stateless MCP server: no SSE stream to
 * open, no session to end. Not in /openapi.json: JSON-RPC, not a REST operation.
 */
export function mcpRoutes(app: FastifyInstance, deps: McpRouteDeps): void {
  app.post(
    '/mcp',
    {
      config: { auth: true, rateLimit: 'per-tool-call' },
      schema: { hide: true },
      onRequest: async (request) => {
        const { origin, host } = request.headers;
        if (!deps.allowOrigin(origin, host)) {
          throw new DomainError(
            'forbidden',
            `Origin ${String(origin).slice(0, 200)} may not call /mcp; allowed are SCOUT_PUBLIC_URL's origin, loopback pages and the origins in SCOUT_MCP_ALLOWED_ORIGINS`,
          );
        }
      },
    },
    async (request, reply) => {
      // The SDK transport writes the answer itself, so Fastify must not: the headers set so
      // far (x-request-id) go onto the raw response first.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      reply.hijack();
      try {
        await deps.handler.handle(request.raw, reply.raw, request.body, {
          keyId: request.apiKeyId as string,
          ctx: request.ctx,
          onUnexpected: (err) => request.log.error({ err }, 'MCP tool call failed'),
        });
      } catch (err) {
        request.log.error({ err }, 'MCP request failed');
        if (!reply.raw.headersSent) {
          reply.raw.end(rawErrorResponse(500, 'Internal Server Error', `internal error; the x-request-id ${request.id} identifies it in the server logs`).split('\r\n\r\n').slice(1).join(''));
        }
      }
    },
  );
}
