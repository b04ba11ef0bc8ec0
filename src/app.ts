import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Config } from './config/settings.ts';
import type { ApiKeys } from './keys/api-keys.ts';
import { createExtractPages } from './fetch/extract-pages.ts';
import type { FetchPage } from './fetch/fetch-page.ts';
import type { MapService } from './map/map-service.ts';
import type { CrawlJobs } from './crawl/crawl-jobs.ts';
import type { CrawlService } from './crawl/crawl-service.ts';
import type { RequestContext, SearchService } from './search/search-service.ts';
import type { UsageReport } from './search/usage-report.ts';
import type { RateLimiter } from './store/ports.ts';
import { AJV_OPTIONS } from './schemas/ajv-options.ts';
import { DomainError } from './domain/errors.ts';
import { registerAuth } from './http/auth.ts';
import type { AnonymousTier } from './http/anonymous-tier.ts';
import { makeClientErrorHandler } from './http/client-error.ts';
import { limitConnections } from './http/connection-limits.ts';
import { answerConnect } from './http/connect-method.ts';
import { answerHalfClosedClients } from './http/half-closed-clients.ts';
import { registerGracefulClose } from './http/graceful-close.ts';
import { trackRequestsInFlight } from './http/requests-in-flight.ts';
import { makeErrorHandler } from './http/error-handler.ts';
import { frameworkErrorOptions } from './http/framework-errors.ts';
import { registerNotFound } from './http/method-not-allowed.ts';
import { redactPathKey } from './http/path-key.ts';
import { compatShapeOf } from './http/compat-shape.ts';
import { registerJsonBody } from './http/json-body.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerRequestDeadline } from './http/request-deadline.ts';
import { registerRequestsPerSocket } from './http/requests-per-socket.ts';
import { registerSingleAuthorization } from './http/single-authorization.ts';
import { serverTimeoutOptions, type ServerTimeouts } from './http/server-timeouts.ts';
import { extractRoutes } from './http/routes/extract.ts';
import { fetchRoutes } from './http/routes/fetch.ts';
import { mapRoutes } from './http/routes/map.ts';
import { crawlRoutes } from './http/routes/crawl.ts';
import { healthRoutes } from './http/routes/health.ts';
import { docsRoutes } from './http/routes/docs.ts';
import { searchRoutes } from './http/routes/search.ts';
import { searxngRoutes } from './http/routes/searxng.ts';
import { tavilyExtractRoutes, tavilySearch } from './http/routes/tavily.ts';
import { firecrawlRoutes } from './http/routes/firecrawl.ts';
import { firecrawlMapRoutes } from './http/routes/firecrawl-map.ts';
import { firecrawlCrawlRoutes } from './http/routes/firecrawl-crawl.ts';
import { tavilyCrawlRoutes, tavilyMapRoutes } from './http/routes/tavily-site.ts';
import { mcpRoutes, type McpRouteDeps } from './http/routes/mcp.ts';
import { usageRoutes } from './http/routes/usage.ts';
import { clickRoutes } from './http/routes/click.ts';
import { adminCampaignRoutes } from './http/routes/admin-campaigns.ts';
import { metricsRoutes } from './http/routes/metrics.ts';
import { adminPageRoutes } from './http/routes/admin-page.ts';
import { adminDashboardRoutes } from './http/routes/admin-dashboard.ts';
import type { KeyAdmin } from './admin/key-admin.ts';
import type { AdminOverview } from './schemas/admin.ts';
import { registerTracing } from './http/tracing-plugin.ts';
import type { ScoutMetrics } from './metrics/scout-metrics.ts';
import { answerOutcome } from './metrics/answer-outcome.ts';
import { failureOf } from './http/failed-with.ts';
import type { ClickLinks } from './sponsored/click-links.ts';
import type { CampaignAdmin } from './sponsored/campaign-admin.ts';

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext;
  }
}

export interface AppDeps {
  config: Pick<
    Config,
    | 'bodyLimitBytes'
    | 'port'
    | 'httpMaxConnections'
    | 'httpMaxConnectionsPerIp'
    | 'httpUnauthenticatedConnectionMs'
    | 'httpShutdownDrainMs'
    | 'pathKeys'
    | 'compatSponsored'
    | 'trustedProxies'
  > &
    ServerTimeouts & {
      /** SCOUT_PUBLIC_URL, when set; absent, absolute URLs in answers come from the request's own host. */
      publicUrl?: string | undefined;
    };
  keys: ApiKeys;
  /** Draws each caller's requests from its bucket: keys' and anonymous callers' (src/keys/caller-limiter.ts). */
  rateLimiter: RateLimiter;
  /** The anonymous tier (SCOUT_ANONYMOUS_RPM), while it is on: who may send no key, as which caller. */
  anonymous?: AnonymousTier;
  search: SearchService;
  fetch: FetchPage;
  /** POST /v1/map: a site's URLs from its sitemaps and pages. */
  map: MapService;
  /** POST /v1/crawl: a bounded crawl of one site, its pages' markdown. */
  crawl: CrawlService;
  /** POST /v1/crawl with async: true, GET and DELETE /v1/crawl/{id}: crawl jobs in the store. */
  crawlJobs: CrawlJobs;
  /** GET /v1/usage: the caller's rate limit and the month's budget. */
  usage: UsageReport;
  /** POST /mcp: MCP over Streamable HTTP (src/mcp), over the same search and fetch. */
  mcp: McpRouteDeps;
  health: () => Promise<void>;
  sponsored: { clicks: ClickLinks; admin: CampaignAdmin; adminToken: string | undefined };
  /** Folder served at /docs/<file>.md: the starter corpus results point there. */
  docsDir: string;
  /** The process logger (see createLogger); request loggers are its children. */
  logger: FastifyBaseLogger;
  /** Counts every answered request; GET /metrics (behind the admin token) renders it. */
  metrics?: ScoutMetrics;
  /** SCOUT_TRACING_OTLP_URL is set: a span per request (the provider is already registered). */
  tracing?: boolean;
  /** The operator dashboard (/admin and /admin/v1/*), served when the admin token is set. */
  admin?: { overview: () => Promise<AdminOverview>; keys: KeyAdmin };
  /** Told of every answered request (the dashboard's traffic, each key's usage); must not throw. */
  onAnswered?: (answer: AnsweredRequest) => void;
}

export interface AnsweredRequest {
  /** The route's template ('unmatched' for 404s). */
  route: string;
  status: number;
  seconds: number;
  /** The API key that authenticated it, when one did. */
  apiKeyId: string | undefined;
  /** The anonymous tier admitted it (no key was sent). */
  anonymous: boolean;
}

/** Builds the HTTP app from ready dependencies; no I/O, no env reads. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { http: serverTimeouts, ...timeoutOptions } = serverTimeoutOptions(deps.config);
  const app = Fastify({
    loggerInstance: deps.logger,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // One line per request, written when it ends (onResponse below), instead of Fastify's two.
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
    bodyLimit: deps.config.bodyLimitBytes,
    ajv: { customOptions: { ...AJV_OPTIONS, keywords: [...AJV_OPTIONS.keywords] } },
    return503OnClosing: true,
    // request.ip is the client a trusted reverse proxy names in X-Forwarded-For, and the
    // socket's address otherwise (the header is the client's word unless a proxy set it).
    // Only the anonymous tier reads request.ip; the connection caps count sockets.
    trustProxy: deps.config.trustedProxies.length > 0 ? [...deps.config.trustedProxies] : false,
    clientErrorHandler: makeClientErrorHandler({
      headersTimeoutMs: deps.config.httpHeadersTimeoutMs,
      requestTimeoutMs: deps.config.httpRequestTimeoutMs,
    }),
    // Slow clients: docs/operations.md, "HTTP server limits".
    ...timeoutOptions,
    ...frameworkErrorOptions(deps.config.bodyLimitBytes),
    // Node answers a missing Host itself, in no shape of ours; the onRequest hook below does.
    http: { requireHostHeader: false, ...serverTimeouts },
  });
  answerHalfClosedClients(app.server);
  const inFlight = trackRequestsInFlight(app.server);
  const connections = limitConnections(
    app.server,
    {
      maxConnections: deps.config.httpMaxConnections,
      maxPerAddress: deps.config.httpMaxConnectionsPerIp,
      unauthenticatedMs: deps.config.httpUnauthenticatedConnectionMs,
    },
    deps.logger,
    inFlight,
  );
  answerConnect(app.server);
  // Closing: docs/operations.md, "Connections and shutdown".
  registerGracefulClose(app, { drainMs: deps.config.httpShutdownDrainMs, log: deps.logger, inFlight });

  // First of all: the request span must wrap every hook and handler.
  if (deps.tracing) await registerTracing(app);
  app.decorateRequest('ctx', undefined as unknown as RequestContext);
  // First of the onRequest hooks: every request is noted, even one refused by the next ones.
  registerRequestDeadline(app);
  registerRequestsPerSocket(app, deps.config.httpMaxRequestsPerSocket);
  app.addHook('onRequest', async (request, reply) => {
    request.ctx = { requestId: request.id, startedAt: performance.now(), log: request.log };
    reply.header('x-request-id', request.id);
    if (request.headers.host === undefined && request.raw.httpVersion !== '1.0') {
      throw new DomainError('invalid', 'HTTP/1.1 requests need a Host header');
    }
  });
  registerSingleAuthorization(app);
  // A keyless connection past its lifetime is closed after this answer (connection-limits.ts).
  app.addHook('onSend', async (request, reply) => {
    if (connections.closeAfterAnswer(request.raw.socket, request.apiKeyId !== undefined))
      reply.header('connection', 'close');
  });
  const { metrics, onAnswered } = deps;
  app.addHook('onResponse', async (request, reply) => {
    // The route's template, never the path itself: label values stay a bounded set.
    const route = request.routeOptions.url ?? 'unmatched';
    const seconds = reply.elapsedTime / 1000;
    metrics?.request(
      route,
      request.method,
      reply.statusCode,
      seconds,
      answerOutcome(reply.statusCode, failureOf(request)),
      compatShapeOf(request),
    );
    if (request.anonymous) metrics?.anonymousRequest(route, reply.statusCode);
    onAnswered?.({
      route,
      status: reply.statusCode,
      seconds,
      apiKeyId: request.apiKeyId,
      anonymous: request.anonymous,
    });
    request.log.info(
      {
        method: request.method,
        path: redactPathKey(request.url.split('?', 1)[0] ?? ''),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request',
    );
  });
  app.setErrorHandler(makeErrorHandler(deps.config.bodyLimitBytes));
  registerJsonBody(app);
  registerNotFound(app);
  registerAuth(app, deps.keys, deps.rateLimiter, deps.anonymous);
  const localUrl = `http://localhost:${deps.config.port}`;
  await registerOpenApi(app, deps.config.publicUrl ?? localUrl);

  healthRoutes(app, deps.health);
  docsRoutes(app, deps.docsDir);
  searchRoutes(app, deps.search);
  // The compat shapes (docs/compat.md): the same search service in the apps' own shapes.
  searxngRoutes(app, {
    search: deps.search,
    sponsored: deps.config.compatSponsored.includes('searxng'),
    pathKeys: deps.config.pathKeys,
    tavily: tavilySearch({ search: deps.search, sponsored: deps.config.compatSponsored.includes('tavily') }),
  });
  tavilyExtractRoutes(app, { fetch: deps.fetch, pathKeys: deps.config.pathKeys });
  firecrawlRoutes(app, {
    search: deps.search,
    fetch: deps.fetch,
    sponsored: deps.config.compatSponsored.includes('firecrawl'),
    pathKeys: deps.config.pathKeys,
  });
  fetchRoutes(app, deps.fetch);
  mapRoutes(app, deps.map);
  // Tavily's and Firecrawl's maps on the same map service.
  tavilyMapRoutes(app, { map: deps.map, pathKeys: deps.config.pathKeys });
  firecrawlMapRoutes(app, { map: deps.map, pathKeys: deps.config.pathKeys });
  crawlRoutes(app, deps.crawl, deps.crawlJobs);
  // Firecrawl's crawl on the same crawl jobs.
  firecrawlCrawlRoutes(app, {
    jobs: deps.crawlJobs,
    pathKeys: deps.config.pathKeys,
    publicUrl: deps.config.publicUrl,
    localUrl,
  });
  // Tavily's crawl on the same crawl service.
  tavilyCrawlRoutes(app, { crawl: deps.crawl, pathKeys: deps.config.pathKeys });
  // POST /v1/extract reads its pages through /v1/fetch's own service (src/fetch/extract-pages.ts).
  extractRoutes(app, createExtractPages(deps.fetch));
  mcpRoutes(app, deps.mcp);
  usageRoutes(app, deps.usage);
  clickRoutes(app, deps.sponsored.clicks);
  adminCampaignRoutes(app, { token: deps.sponsored.adminToken, admin: deps.sponsored.admin });
  if (deps.metrics) metricsRoutes(app, { token: deps.sponsored.adminToken, metrics: deps.metrics });
  if (deps.admin) {
    adminPageRoutes(app, { token: deps.sponsored.adminToken });
    adminDashboardRoutes(app, { token: deps.sponsored.adminToken, ...deps.admin });
  }
  return app;
}
