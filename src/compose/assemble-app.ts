import type { Logger } from 'pino';
import type { ScoutConfig } from '../scout-settings.ts';
import { isAgentTraffic, requestKind, type Activity } from '../admin/activity.ts';
import { buildApp, type AppDeps } from '../app.ts';
import type { ApiKeys } from '../keys/api-keys.ts';
import type { Closers } from '../domain/closers.ts';
import type { KeyUsageRecorder } from '../keys/key-usage-recorder.ts';
import type { FetchPage } from '../fetch/fetch-page.ts';
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
    publicUrl: string;
    docsDir: string;
    logger: Logger;
    metrics: ScoutMetrics;
    activity: Activity;
    storage: Storage;
    keys: ApiKeys;
    keyUsage: KeyUsageRecorder;
    sponsored: Sponsored;
    budget: SearchBudget;
    search: SearchService;
    fetch: FetchPage;
    mcp: AppDeps['mcp'];
    admin: Admin;
  },
  closers: Closers,
): Promise<App> {
  const { storage, sponsored, activity, keyUsage } = deps;
  const app = await buildApp({
    config: { ...config, publicUrl: deps.publicUrl },
    docsDir: deps.docsDir,
    keys: deps.keys,
    rateLimiter: storage.stores.rateLimiter,
    search: deps.search,
    fetch: deps.fetch,
    mcp: deps.mcp,
    usage: createUsageReport(deps.budget),
    health: () => storage.stores.ping(),
    sponsored: { clicks: sponsored.clicks, admin: sponsored.admin, adminToken: config.adminToken },
    logger: deps.logger,
    metrics: deps.metrics,
    tracing: config.tracingOtlpUrl !== undefined,
    admin: deps.admin,
    onAnswered: ({ route, status, seconds, apiKeyId }) => {
      if (isAgentTraffic(route)) activity.request(status, seconds, requestKind(route));
      if (apiKeyId !== undefined) keyUsage.record(apiKeyId, status === 429);
    },
  });
  // Closed first: in-flight requests finish before the stores behind them go.
  closers.add(() => app.close());
  return app;
}
