import type { Logger } from 'pino';
import type { ScoutConfig } from '../scout-settings.ts';
import { isAgentTraffic, requestKind, type Activity } from '../admin/activity.ts';
import { buildApp, type AppDeps } from '../app.ts';
import type { ApiKeys } from '../keys/api-keys.ts';
import type { Closers } from '../domain/closers.ts';
import type { KeyUsageRecorder } from '../keys/key-usage-recorder.ts';
import { callerRateLimiter } from '../keys/caller-limiter.ts';
import { ANONYMOUS_USAGE_ID } from '../domain/anonymous-caller.ts';
import { createAnonymousTier } from '../http/anonymous-tier.ts';
import type { FetchPage } from '../fetch/fetch-page.ts';
import type { MapService } from '../map/map-service.ts';
import type { CrawlJobs } from '../crawl/crawl-jobs.ts';
import type { CrawlService } from '../crawl/crawl-service.ts';
import type { ScoutMetrics } from '../metrics/scout-metrics.ts';
import type { SearchBudget } from '../search/search-budget.ts';
import type { SearchService } from '../search/search-service.ts';
import { createUsageReport } from '../search/usage-report.ts';
import type { Sponsored } from '../sponsored/create-sponsored.ts';
import type { Admin } from './assemble-admin.ts';
import type { Storage } from './assemble-storage.ts';

export type App = Awaited<ReturnType<typeof buildApp>>;

/** The HTTP app over every service assembled before it (src/app.ts; nothing listens yet). */
export async function assembleApp(
  config: ScoutConfig,
  deps: {
    docsDir: string;
    logger: Logger;
    metrics: ScoutMetrics;
    activity: Activity;
    storage: Storage;
    keys: ApiKeys;
    keyUsage: KeyUsageRecorder;
    sponsored: Sponsored;
    budget: SearchBudget;
    anonymousBudget: SearchBudget | undefined;
    search: SearchService;
    fetch: FetchPage;
    map: MapService;
    crawl: CrawlService;
    crawlJobs: CrawlJobs;
    mcp: AppDeps['mcp'];
    admin: Admin;
  },
  closers: Closers,
): Promise<App> {
  const { storage, sponsored, activity, keyUsage } = deps;
  const app = await buildApp({
    // SCOUT_PUBLIC_URL as set (or not): the app tells an operator's URL from its own default.
    config,
    docsDir: deps.docsDir,
    keys: deps.keys,
    rateLimiter: callerRateLimiter(storage.stores.rateLimiter, storage.stores.anonymousRateLimiter),
    ...(config.anonymousRpm > 0
      ? {
          anonymous: createAnonymousTier({ cidrs: config.anonymousCidrs, ipv6Prefix: config.anonymousIpv6Prefix }),
        }
      : {}),
    search: deps.search,
    fetch: deps.fetch,
    map: deps.map,
    crawl: deps.crawl,
    crawlJobs: deps.crawlJobs,
    mcp: deps.mcp,
    usage: createUsageReport(deps.budget, deps.anonymousBudget),
    health: () => storage.stores.ping(),
    sponsored: { clicks: sponsored.clicks, admin: sponsored.admin, adminToken: config.adminToken },
    logger: deps.logger,
    metrics: deps.metrics,
    tracing: config.tracingOtlpUrl !== undefined,
    admin: deps.admin,
    onAnswered: ({ route, status, seconds, apiKeyId, anonymous }) => {
      if (isAgentTraffic(route)) activity.request(status, seconds, requestKind(route));
      if (apiKeyId !== undefined) keyUsage.record(apiKeyId, status === 429);
      // Every address's keyless requests as one entry: the dashboard shows the tier, not the addresses.
      else if (anonymous) keyUsage.record(ANONYMOUS_USAGE_ID, status === 429);
    },
  });
  // Closed first: in-flight requests finish before the stores behind them go.
  closers.add(() => app.close());
  return app;
}
