import { rateLimitHeaders } from '../keys/rate-limit.ts';
import type { RequestContext } from '../search/search-service.ts';
import type { RateLimitDecision } from '../store/ports.ts';
import { ExchangeTransport } from './exchange-transport.ts';
import { frame, type McpHttpAnswer, type McpHttpHeaders } from './http-framing.ts';
import { createMcpServer } from './mcp-server.ts';
import { resultJson } from './rendered-result.ts';
import { servicesBackend, type ServiceCaller, type ServiceDeps } from './tool-backend.ts';
import { createToolCalls } from './tool-calls.ts';
import type { SearchScope } from './tool-definitions.ts';
import { createToolset } from './toolset.ts';

export type { McpHttpAnswer, McpHttpHeaders } from './http-framing.ts';

export interface McpHttpDeps extends ServiceDeps {
  /** SCOUT_MCP_MAX_RESULT_TOKENS. */
  maxResultTokens: number;
  /** What web_search searches (tool-definitions.ts); default the web. */
  searchScope?: SearchScope;
  /** The tools offered to a POST that selects none (SCOUT_MCP_TOOLS, checked by tool-selection.ts). */
  defaultTools: readonly string[];
}

/** Who sent one POST /mcp: already authenticated by the HTTP layer. */
export interface McpHttpCaller {
  keyId: string;
  ctx: RequestContext;
  /** Puts headers on the HTTP answer (the RateLimit-* ones of a tool call). */
  setHeaders(headers: Record<string, string>): void;
  onUnexpected?: (err: unknown) => void;
}

/** One POST /mcp under way. */
export interface McpHttpCall {
  /** What to answer; undefined once abandoned. */
  answer: Promise<McpHttpAnswer | undefined>;
  /** The connection closed: the call's requests are cancelled, nothing is kept for them. */
  abandon(): void;
}

export interface McpHttpHandler {
  /**
   * Answers one POST /mcp whose body the HTTP layer has parsed. `tools`: the tools this POST
   * selected (its ?tools=, checked by tool-selection.ts); the default ones when left out.
   */
  handle(headers: McpHttpHeaders, body: unknown, caller: McpHttpCaller, tools?: readonly string[]): McpHttpCall;
  /** Requests awaiting their answer (tests: an abandoned call leaves none behind). */
  inFlight(): number;
}

/** One POST's caller as the services see it (methods: nothing is built per tool call). */
class PostCaller implements ServiceCaller {
  constructor(readonly http: McpHttpCaller) {}
  async keyId(): Promise<string> {
    return this.http.keyId;
  }
  context(): RequestContext {
    return this.http.ctx;
  }
  onRateLimit(d: RateLimitDecision): void {
    this.http.setHeaders(rateLimitHeaders(d));
  }
}

const settled = (answer: McpHttpAnswer): McpHttpCall => ({ answer: Promise.resolve(answer), abandon: () => undefined });

/**
 * Streamable HTTP, stateless: no session id, nothing kept between requests (any Scout
 * process can answer any request), JSON answers rather than an SSE stream since a tool call
 * sends no progress. One SDK Server serves every POST of the process that selects the same
 * tools (?tools=, tool-selection.ts) through an ExchangeTransport; a new Server and transport
 * for each POST cost more than the search. The selection is per request, like everything
 * else here: a client sends every request to the URL it was given, so its tools/list and its
 * tools/call see the same tools. There are at most as many Servers as selections in use
 * (subsets of the catalog), each made at its first POST. What a Server keeps of an
 * initialize (the client's capabilities) serves only requests to the client, which Scout
 * never makes, so clients sharing it see nothing of each other. Each tools/call is charged
 * to the caller's key (one request, or one per page or query, tool-calls.ts); the
 * RateLimit-* headers of the HTTP answer are those of its last tool call.
 */
export function createMcpHttpHandler(deps: McpHttpDeps): McpHttpHandler {
  const backend = servicesBackend(deps);
  // By selection ("web_search,fetch_page"): the transport of the Server offering those tools.
  const served = new Map<string, ExchangeTransport<PostCaller>>();

  const transportFor = (tools: readonly string[]): ExchangeTransport<PostCaller> => {
    const key = tools.join(',');
    const known = served.get(key);
    if (known !== undefined) return known;
    const transport = new ExchangeTransport<PostCaller>();
    const toolset = createToolset(tools, deps.searchScope ?? 'web', deps.maxResultTokens);
    const callTool = createToolCalls(backend, {
      toolset,
      onUnexpected: (err, caller: PostCaller) => caller.http.onUnexpected?.(err),
    });
    const server = createMcpServer(async (name, args, requestId, signal) => {
      const caller = transport.contextOf(requestId);
      // Abandoned before it started: the answer would be dropped anyway.
      if (caller === undefined) throw new Error('the HTTP request of this call is gone');
      const result = await callTool(name, args, caller, signal);
      const json = resultJson(result);
      if (json !== undefined) transport.useResultJson(requestId, json);
      return result;
    }, toolset);
    // connect() sets the transport's onmessage at once; what it awaits (start) does nothing.
    void server.connect(transport);
    served.set(key, transport);
    return transport;
  };

  return {
    handle(headers, body, caller, tools = deps.defaultTools) {
      const framed = frame(headers, body);
      if (!framed.ok) return settled(framed.answer);
      const transport = transportFor(tools);
      const extra = { requestInfo: { headers } };
      if (!framed.hasRequests) {
        // Notifications (and responses) only: accepted, nothing to answer.
        transport.dispatch(framed.messages, extra, new PostCaller(caller), () => undefined);
        return settled({ status: 202 });
      }
      let exchange!: ReturnType<typeof transport.dispatch>;
      let done!: (answer: McpHttpAnswer | undefined) => void;
      const answer = new Promise<McpHttpAnswer | undefined>((resolve) => {
        done = resolve;
        exchange = transport.dispatch(framed.messages, extra, new PostCaller(caller), (json) =>
          resolve({ status: 200, body: json }),
        );
      });
      return {
        answer,
        abandon() {
          transport.abandon(exchange);
          done(undefined);
        },
      };
    },
    inFlight: () => [...served.values()].reduce((sum, t) => sum + t.inFlight, 0),
  };
}
