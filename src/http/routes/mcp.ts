import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import type { McpHttpHandler } from '../../mcp/http-handler.ts';
import type { OriginPolicy } from '../../mcp/origin-policy.ts';
import { selectTools } from '../../mcp/tool-selection.ts';

export interface McpRouteDeps {
  handler: McpHttpHandler;
  allowOrigin: OriginPolicy;
}

/**
 * POST /mcp: MCP over Streamable HTTP (docs/mcp.md). Authenticated like /v1/search; rate
 * limited per tools/call inside (auth.ts, 'per-tool-call'). GET and DELETE are 405 with
 * Allow: POST (the 404/405 handler), as on every stateless MCP server: no SSE stream to
 * open, no session to end. Not in /openapi.json: JSON-RPC, not a REST operation.
 * `?tools=web_search,fetch_pages` (or `all`) selects the tools of this request; without it,
 * SCOUT_MCP_TOOLS's. An unknown name is 400 in the Error shape, naming the tools there are.
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
      // Repeated (?tools=a&tools=b), its names are joined; other parameters are ignored, as before.
      const asked = (request.query as Record<string, string | string[] | undefined>).tools;
      const tools = asked === undefined ? undefined : selectTools(asked, '?tools=');
      const call = deps.handler.handle(
        request.headers,
        request.body,
        {
          // The key's id, or the anonymous caller's `anon:<address group>` (auth.ts sets both as ctx.caller).
          keyId: request.ctx.caller as string,
          ctx: request.ctx,
          setHeaders(headers) {
            reply.headers(headers);
          },
          onUnexpected(err) {
            request.log.error({ err }, 'MCP tool call failed');
          },
        },
        tools,
      );
      // Also emitted after the answer, when abandoning is a no-op; before it, the client left.
      reply.raw.once('close', call.abandon);
      const answer = await call.answer;
      // Abandoned: no connection to answer on (Fastify sends nothing for undefined then).
      if (answer === undefined) return undefined;
      reply.code(answer.status);
      return answer.body === undefined ? reply.send() : reply.type('application/json').send(answer.body);
    },
  );
}
