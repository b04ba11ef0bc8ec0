import type { ScoutConfig } from './scout-settings.ts';
import { ConfigError } from './config/load-config.ts';
import { buildApp } from './app.ts';
import { createClosers, type Closers } from './domain/closers.ts';
import { createApiKeys, type ApiKeys } from './keys/api-keys.ts';
import { createFetchPage, type FetchPage } from './fetch/fetch-page.ts';
import { createFetchService } from './fetch/fetch-service.ts';
import { ownDocsReader } from './fetch/own-docs.ts';
import { createContentStage } from './content/content-stage.ts';
import { FETCH_LIMITS } from './schemas/fetch.ts';
import { createSearchBudget, type SearchBudget } from './search/search-budget.ts';
import { createSearchService, type SearchService } from './search/search-service.ts';
import { createUsageReport } from './search/usage-report.ts';
import { createByteBudget, promisedShare } from './fetch/byte-budget.ts';
import { currentByteAccount } from './fetch/byte-scope.ts';
import { createExtractPool } from './fetch/extract-pool.ts';
import type { ExtractedDocument, ExtractInput } from './extract/extract-document.ts';
import { withFetchCapacity } from './fetch/fetch-capacity.ts';
import { createHostGate } from './fetch/host-gate.ts';
import type { LocalIndexApi } from './index/local-index-api.ts';
import { openServerIndex } from './index/open-index.ts';
import { indexStarterCorpus } from './index/starter-corpus.ts';
import { createLocalProvider } from './providers/local.ts';
import { createProviders, searchBackendOptions } from './providers/create-providers.ts';
import { createSearchBackend } from './providers/registry.ts';
import { createLogger } from './http/logger-options.ts';
import { createMcpHttpHandler } from './mcp/http-handler.ts';
import { startMetricsServer } from './http/metrics-server.ts';
import { startTracing } from './tracing/start-tracing.ts';
import { packageVersion } from './cli/version.ts';
import { countedEvents, countedFetch } from './metrics/counted.ts';
import { createScoutMetrics, type ScoutMetrics } from './metrics/scout-metrics.ts';
import { createOriginPolicy } from './mcp/origin-policy.ts';
import { indexFile, openServerStorage, type StorageMode } from './store/create-stores.ts';
import {
  createSponsored,
  sponsoredOptionsFrom,
  type LandingNetwork,
  type Sponsored,
} from './sponsored/create-sponsored.ts';
import type { Stores } from './store/ports.ts';
import { createActivity, isAgentTraffic, requestKind } from './admin/activity.ts';
import { readOverview } from './admin/admin-overview.ts';
import { createKeyAdmin } from './admin/key-admin.ts';
import { createKeyUsageRecorder } from './keys/key-usage-recorder.ts';

export interface Scout {
  app: Awaited<ReturnType<typeof buildApp>>;
  stores: Stores;
  /** Where state lives (SCOUT_DATABASE_URL, SCOUT_REDIS_URL). */
  storageMode: StorageMode;
  index: LocalIndexApi;
  keys: ApiKeys;
  sponsored: Sponsored;
  budget: SearchBudget;
  search: SearchService;
  /** POST /v1/fetch's service (the stdio MCP server calls it in-process). */
  fetch: FetchPage;
  /** Fetches running and waiting in line now (the fetch capacity's state, for tests and logs). */
  fetchLine(): { active: number; queued: number };
  /** Prometheus metrics (GET /metrics, SCOUT_METRICS_PORT). */
  metrics: ScoutMetrics;
  /** The port of the SCOUT_METRICS_PORT listener, when there is one. */
  metricsPort?: number;
  close(): Promise<void>;
}

/**
 * `resolver`: DNS for fetch and for sponsored landing hosts (tests inject a stub), which then
 * needs a `landingProbe` too: landing checks request the page (src/sponsored/landing-check.ts).
 */
export type ScoutOptions = ScoutSettings & LandingNetwork;

interface ScoutSettings {
  /** Folder of the starter corpus (Scout's own docs/). */
  docsDir: string;
  logStream?: NodeJS.WritableStream;
  /**
   * Replaces the extraction worker pool (no threads are started). Only bench/fetch.ts sets
   * it, to measure extraction on the main thread against the pool; a server never does.
   */
  extract?: (input: ExtractInput, signal?: AbortSignal) => Promise<ExtractedDocument>;
}

/** The embedded index file (tests open it beside a running Scout). */
export { indexFile };

/** Wires every piece from a ScoutConfig: the one place where implementations meet. */
export async function createScout(config: ScoutConfig, options: ScoutOptions): Promise<Scout> {
  // Everything opened is closed again, in reverse order, when the start fails half way or
  // when Scout closes; one failing close does not leave the others open.
  const closers = createClosers();
  try {
    const scout = await wire(config, options, closers);
    return { ...scout, close: () => closers.closeAll() };
  } catch (e) {
    await closers.closeAll().catch(() => undefined);
    throw e;
  }
}

async function wire(config: ScoutConfig, options: ScoutOptions, closers: Closers): Promise<Omit<Scout, 'close'>> {
  const logger = createLogger(config.logLevel, options.logStream);
  // Pages are extracted in worker threads (docs/operations.md, "Fetch workers"), which load
  // their code while the rest starts; closed last, after the requests that use them.
  // Before anything makes a request, so every outbound call is traced.
  if (config.tracingOtlpUrl !== undefined) {
    const tracing = await startTracing({ url: config.tracingOtlpUrl, version: packageVersion() });
    closers.add(() => tracing.close());
    logger.info({ url: config.tracingOtlpUrl }, 'tracing: spans sent to the OTLP endpoint');
  }
  // Gauges read their sources at scrape time, all of them wired below by then.
  const metrics = createScoutMetrics({
    budget: () => budget.usage(),
    providers: () => backend.status(),
    index: () => index.rankerStatus(),
    eventBacklog: () => sponsored.backlog(),
    extractQueue: () => extractPool?.queued() ?? 0,
  });
  // What this process served lately, for the dashboard (per replica, since start).
  const activity = createActivity();
  let extract = options.extract;
  let extractPool: ReturnType<typeof createExtractPool> | undefined;
  if (extract === undefined) {
    extractPool = createExtractPool({
      workers: config.fetchWorkers,
      heapMb: config.fetchWorkerHeapMb,
      nice: config.fetchWorkerNice,
      onWorkerError: (err) => logger.error({ err }, 'fetch worker lost while idle; replaced'),
    });
    const pool = extractPool;
    closers.add(() => pool.close());
    extract = pool.extract;
  }
  const extractPage = extract;
  extract = async (input, signal) => {
    const started = performance.now();
    try {
      return await extractPage(input, signal);
    } finally {
      metrics.extract((performance.now() - started) / 1000);
    }
  };
  const storage = await openServerStorage(config, {
    logger,
    remoteProviders: config.searchProviders.some((p) => p !== 'local'),
  });
  closers.add(() => storage.close());
  const index = await openServerIndex(storage.index, config, logger);
  closers.add(() => index.close());
  const { stores } = storage;
  logger.info({ mode: storage.mode }, 'storage');
  const publicUrl = config.publicUrl ?? `http://localhost:${config.port}`;
  // Refreshed on every start (one transaction, imported documents untouched), so the
  // starter corpus follows the docs; turning it off removes it. Its URLs do not depend on
  // this process's port or public URL, so another process on the same folder writes nothing.
  if (config.starterCorpus) await indexStarterCorpus(index, options.docsDir);
  else await index.replaceSource('starter', []);
  index.startRanker();

  const providers = createProviders(config, { local: createLocalProvider(index) });
  const backend = createSearchBackend(providers, {
    ...searchBackendOptions(config, logger.child({ component: 'search' })),
    ...(storage.resultCache ? { cache: storage.resultCache } : {}),
    onProviderCall: (provider, outcome, seconds) => {
      metrics.provider(provider, outcome, seconds);
      activity.provider(provider, outcome, seconds);
    },
  });
  const keys = createApiKeys(stores.keys);
  // Each key's requests, refusals and last use, written in batches; the last batch after the
  // app's requests end (closers run in reverse), before the stores close.
  const keyUsage = createKeyUsageRecorder(stores.keys, {
    onError: (err) => logger.error({ err }, 'key usage: write failed; kept for the next try'),
  });
  closers.add(() => keyUsage.close());
  const sponsored = createSponsored({
    ...sponsoredOptionsFrom(config),
    stores: countedEvents(storage.sponsored, metrics),
    // One key for every process on this storage: a click URL from any replica (or from before
    // a restart) verifies everywhere.
    recIdKey: await storage.sponsored.secrets.get('rec_id', 32),
    ...(options.resolver
      ? { resolver: options.resolver, landingProbe: options.landingProbe }
      : options.landingProbe
        ? { landingProbe: options.landingProbe }
        : {}),
    // Ads are skipped or their events kept for a retry; searches answer either way.
    onError: (err) => logger.error({ err }, 'sponsored results: storage failed'),
    onEventsRecovered: () => logger.info({}, 'sponsored results: ad events written again'),
  });
  closers.add(() => sponsored.close());
  // One capacity for POST /v1/fetch and the advanced stage's pages (docs/operations.md).
  const fetchBytes = config.fetchBufferMb * 1024 * 1024;
  const fetcher = withFetchCapacity(
    createFetchService({
      resolveClickUrl: sponsored.resolveClickUrl,
      ownDocs: ownDocsReader(options.docsDir),
      allowCidrs: config.fetchAllowCidrs,
      timeoutMs: config.fetchTimeoutMs,
      extract,
      http: { hostGate: createHostGate(config.fetchPerHost), byteAccount: currentByteAccount },
      ...(options.resolver ? { resolver: options.resolver } : {}),
    }),
    {
      concurrency: config.fetchConcurrency,
      queue: config.fetchQueue,
      timeoutMs: config.fetchTimeoutMs,
      bytes: createByteBudget(fetchBytes, promisedShare(fetchBytes, config.fetchConcurrency)),
    },
  );
  closers.add(() => fetcher.close());
  // Every page fetch, for POST /v1/fetch and for advanced searches, counted by outcome.
  const fetchCounted = countedFetch(fetcher.fetch.bind(fetcher), (url, outcome, chars) => {
    metrics.fetch(outcome, chars);
    activity.fetch(url, outcome);
  });
  const content = createContentStage({
    // The whole page (the largest max_chars): passages are chosen from all of it.
    fetchPage: (url, signal, caller) => fetchCounted({ url, maxChars: FETCH_LIMITS.maxChars.max, signal, caller }),
    onPageError: (url, err) => logger.debug({ url, reason: String(err) }, 'advanced search: page skipped'),
  });
  const budget = createSearchBudget(stores.budget, config.monthlySearchBudget, () => new Date(), {
    shared: storage.sharedBudget,
  });
  // After the app (closed first) and before the store: the unspent lease goes back.
  closers.add(() => budget.close());
  const search = createSearchService({
    backend,
    budget,
    content,
    sponsored: sponsored.stage,
  });

  // The first fetch should not wait for a worker to load.
  await extractPool?.ready();
  const fetchPage = createFetchPage({ fetch: fetchCounted });
  const keyAdmin = createKeyAdmin(stores.keys, { flush: () => keyUsage.flush() });
  const app = await buildApp({
    config: { ...config, publicUrl },
    docsDir: options.docsDir,
    keys,
    rateLimiter: stores.rateLimiter,
    search,
    fetch: fetchPage,
    mcp: {
      handler: createMcpHttpHandler({
        search,
        fetch: fetchPage,
        rateLimiter: stores.rateLimiter,
        maxResultTokens: config.mcpMaxResultTokens,
      }),
      allowOrigin: createOriginPolicy({ publicUrl, allowedOrigins: config.mcpAllowedOrigins }),
    },
    usage: createUsageReport(budget),
    health: () => stores.ping(),
    sponsored: { clicks: sponsored.clicks, admin: sponsored.admin, adminToken: config.adminToken },
    logger,
    metrics,
    tracing: config.tracingOtlpUrl !== undefined,
    admin: {
      keys: keyAdmin,
      overview: () =>
        readOverview({
          activity,
          storage: storage.mode,
          budget: () => budget.usage(),
          keys: keyAdmin,
          providers: () => backend.status(),
          index,
          campaigns: async () => (await sponsored.admin.report()).campaigns,
        }),
    },
    onAnswered: ({ route, status, seconds, apiKeyId }) => {
      if (isAgentTraffic(route)) activity.request(status, seconds, requestKind(route));
      if (apiKeyId !== undefined) keyUsage.record(apiKeyId, status === 429);
    },
  });
  // Closed first: in-flight requests finish before the stores behind them go.
  closers.add(() => app.close());
  let metricsPort: number | undefined;
  if (config.metricsPort !== undefined) {
    const port = config.metricsPort;
    const server = await startMetricsServer(metrics, port).catch((e: NodeJS.ErrnoException) => {
      throw new ConfigError(
        `cannot serve metrics on 127.0.0.1:${port}: ${e.code ?? e.message} (set SCOUT_METRICS_PORT)`,
        { cause: e },
      );
    });
    closers.add(() => server.close());
    metricsPort = server.port;
  }
  return {
    app,
    stores,
    storageMode: storage.mode,
    index,
    keys,
    sponsored,
    budget,
    search,
    fetch: fetchPage,
    fetchLine: () => ({ active: fetcher.active, queued: fetcher.queued }),
    metrics,
    ...(metricsPort === undefined ? {} : { metricsPort }),
  };
}
