import type { AdminOverview } from '../schemas/admin.ts';
import type { CampaignReportRow } from '../schemas/campaign.ts';
import type { BudgetUsage } from '../search/search-budget.ts';
import type { LocalIndexApi } from '../index/local-index-api.ts';
import type { ProviderStatus } from '../providers/registry.ts';
import type { Activity, TrafficPoint } from './activity.ts';
import { projectBudget } from './budget-projection.ts';
import type { KeyAdmin } from './key-admin.ts';

export interface OverviewSources {
  activity: Activity;
  storage: string;
  budget(): Promise<BudgetUsage>;
  keys: KeyAdmin;
  providers(): Pick<ProviderStatus, 'name' | 'state' | 'last' | 'waiting'>[];
  index: Pick<LocalIndexApi, 'stats' | 'rankerStatus'>;
  campaigns(): Promise<CampaignReportRow[]>;
  now?: () => Date;
}

/** Hosts listed in the dashboard's "most refused" table. */
export const REFUSED_DOMAINS_SHOWN = 20;

const iso = (ms: number) => new Date(ms).toISOString();

const series = (s: { bucketSeconds: number; points: TrafficPoint[] }) => ({
  bucket_seconds: s.bucketSeconds,
  buckets: s.points.map((p) => ({
    start: iso(p.start),
    ...p.counts,
    p50_ms: p.p50Ms,
    p95_ms: p.p95Ms,
    latency: {
      search: { p50_ms: p.byKind.search.p50Ms, p95_ms: p.byKind.search.p95Ms },
      fetch: { p50_ms: p.byKind.fetch.p50Ms, p95_ms: p.byKind.fetch.p95Ms },
      mcp: { p50_ms: p.byKind.mcp.p50Ms, p95_ms: p.byKind.mcp.p95Ms },
      map: { p50_ms: p.byKind.map.p50Ms, p95_ms: p.byKind.map.p95Ms },
      crawl: { p50_ms: p.byKind.crawl.p50Ms, p95_ms: p.byKind.crawl.p95Ms },
    },
  })),
});

/**
 * One snapshot of everything the dashboard shows (GET /admin/v1/overview). The budget is
 * null when its store cannot answer, so the rest of the page still loads; every other part
 * failing fails the request (the page keeps its last data and says so).
 */
export async function readOverview(s: OverviewSources): Promise<AdminOverview> {
  const now = (s.now ?? (() => new Date()))();
  const at = now.getTime();
  const [budget, keys, anonymous, stats, campaigns] = await Promise.all([
    s.budget().catch(() => undefined),
    s.keys.list(),
    s.keys.anonymous(),
    s.index.stats(),
    s.campaigns(),
  ]);
  const usage = s.activity.providers(at);
  const breakers = s.providers();
  // Every configured provider appears, called lately or not; one no longer configured does not.
  const providers = breakers.map((b) => {
    const u = usage.find((p) => p.name === b.name);
    return {
      name: b.name,
      breaker: b.state,
      health: b.last?.health ?? ('unknown' as const),
      last_call_at: b.last ? new Date(b.last.at).toISOString() : null,
      last_error: b.last?.reason ?? null,
      waiting: b.waiting ?? 0,
      requests: u?.requests ?? 0,
      errors: u?.errors ?? 0,
      timeouts: u?.timeouts ?? 0,
      p50_ms: u?.p50Ms ?? null,
      p95_ms: u?.p95Ms ?? null,
    };
  });
  const projection = budget && projectBudget(budget, now);
  return {
    generated_at: now.toISOString(),
    started_at: iso(s.activity.startedAt),
    storage: s.storage,
    budget:
      budget && projection
        ? {
            period: budget.period,
            total: budget.total,
            used: budget.used,
            left: budget.left,
            resets_at: budget.resetsAt.toISOString(),
            projected_used: projection.projectedUsed,
            projected_exhausted_at: projection.exhaustedAt?.toISOString() ?? null,
          }
        : null,
    traffic: { hour: series(s.activity.traffic('hour', at)), day: series(s.activity.traffic('day', at)) },
    keys,
    anonymous,
    providers,
    fetch: {
      outcomes: s.activity.fetchOutcomes(at),
      refused_domains: s.activity.refusedDomains(REFUSED_DOMAINS_SHOWN).map((d) => ({
        domain: d.domain,
        count: d.count,
        outcomes: d.outcomes,
        last_at: iso(d.lastAt),
      })),
    },
    index: {
      state: s.index.rankerStatus().state,
      documents: stats.documents,
      domains: stats.domains,
      bytes: stats.bytes,
      text_bytes: stats.textBytes,
      last_import_at: stats.lastImportAt ?? null,
    },
    campaigns,
  };
}
