import type { ScoutConfig } from './scout-settings.ts';
import { createClosers, type Closers } from './domain/closers.ts';
import type { ApiKeys } from './keys/api-keys.ts';
import type { FetchPage } from './fetch/fetch-page.ts';
import type { MapService } from './map/map-service.ts';
import type { CrawlService } from './crawl/crawl-service.ts';
import type { SearchBudget } from './search/search-budget.ts';
import type { SearchService } from './search/search-service.ts';
import type { LocalIndexApi } from './index/local-index-api.ts';
import { createLogger } from './http/logger-options.ts';
import type { ScoutMetrics } from './metrics/scout-metrics.ts';
import { indexFile, type StorageMode } from './store/create-stores.ts';
import type { LandingNetwork, Sponsored } from './sponsored/create-sponsored.ts';
import type { Stores } from './store/ports.ts';
import { assembleObservability } from './compose/assemble-observability.ts';
import { assembleExtraction, type ExtractPage } from './compose/assemble-extraction.ts';
import { assembleStorage } from './compose/assemble-storage.ts';
import { assembleProviders } from './compose/assemble-providers.ts';
import { assembleKeys } from './compose/assemble-keys.ts';
import { assembleSponsored } from './compose/assemble-sponsored.ts';
import { assembleFetch } from './compose/assemble-fetch.ts';
import { assembleSearch } from './compose/assemble-search.ts';
import { assembleMcp } from './compose/assemble-mcp.ts';
import { assembleMap } from './compose/assemble-map.ts';
import { assembleCrawl } from './compose/assemble-crawl.ts';
import { assembleAdmin } from './compose/assemble-admin.ts';
import { assembleApp, type App } from './compose/assemble-app.ts';
import { assembleMetricsServer } from './compose/assemble-metrics-server.ts';

export interface Scout {
  app: App;
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
  /** POST /v1/map's service (the stdio MCP server's map_site calls it in-process). */
  map: MapService;
  /** POST /v1/crawl's service (the stdio MCP server's crawl_site calls it in-process). */
  crawl: CrawlService;
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
  extract?: ExtractPage;
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

/**
 * Assembles Scout one capability at a time, each from what the ones before it returned, in
 * the order they open: every closer is registered as its piece opens, so Scout closes in the
 * reverse order (the metrics listener, the app, the budget, the fetch capacity, sponsored,
 * key usage, storage, the extraction workers, tracing).
 */
async function wire(config: ScoutConfig, options: ScoutOptions, closers: Closers): Promise<Omit<Scout, 'close'>> {
  const logger = createLogger(config.logLevel, options.logStream);
  const { metrics, gauges, activity } = await assembleObservability(config, logger, closers);
  const extraction = assembleExtraction(config, options.extract, { logger, metrics }, closers);
  const storage = await assembleStorage(config, options.docsDir, logger, closers);
  const backend = assembleProviders(config, { logger, metrics, activity, storage });
  const { keys, usage: keyUsage } = assembleKeys(storage.stores, logger, closers);
  const sponsored = await assembleSponsored(config, options, { logger, metrics, storage }, closers);
  const fetching = assembleFetch(config, options, { extract: extraction.run, sponsored, metrics, activity }, closers);
  const { budget, anonymousBudget, search } = assembleSearch(
    config,
    { logger, storage, backend, sponsored, fetch: fetching.fetch },
    closers,
  );
  // Everything the gauges read exists now; they are read only at scrape time.
  gauges.bind({
    budget: () => budget.usage(),
    providers: () => backend.status(),
    index: () => storage.index.rankerStatus(),
    eventBacklog: () => sponsored.backlog(),
    extractQueue: () => extraction.queued(),
  });
  // The first fetch should not wait for a worker to load.
  await extraction.ready();

  const publicUrl = config.publicUrl ?? `http://localhost:${config.port}`;
  const map = assembleMap(config, { fetching, stores: storage.stores });
  const { crawl, jobs: crawlJobs } = assembleCrawl(config, { fetching, stores: storage.stores, log: logger }, closers);
  const mcp = assembleMcp(config, publicUrl, { search, fetch: fetching.page, map, crawl, stores: storage.stores });
  const admin = assembleAdmin({ storage, keyUsage, activity, budget, backend, sponsored });
  const app = await assembleApp(
    config,
    {
      docsDir: options.docsDir,
      logger,
      metrics,
      activity,
      storage,
      keys,
      keyUsage,
      sponsored,
      budget,
      anonymousBudget,
      search,
      fetch: fetching.page,
      map,
      crawl,
      crawlJobs,
      mcp,
      admin,
    },
    closers,
  );
  const metricsPort = await assembleMetricsServer(config, metrics, closers);
  return {
    app,
    stores: storage.stores,
    storageMode: storage.mode,
    index: storage.index,
    keys,
    sponsored,
    budget,
    search,
    fetch: fetching.page,
    map,
    crawl,
    fetchLine: fetching.line,
    metrics,
    ...(metricsPort === undefined ? {} : { metricsPort }),
  };
}
