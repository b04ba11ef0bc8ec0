import { displayDomain } from '../domain/domains.ts';
import { FETCH_OUTCOMES, type FetchOutcome } from '../metrics/fetch-outcome.ts';
import type { ProviderOutcome } from '../metrics/scout-metrics.ts';
import { mergeInto, newSketch, observe, quantile, type LatencySketch } from './latency-sketch.ts';
import { createRollingBuckets } from './rolling-buckets.ts';
import { createTopDomains, type DomainCount } from './top-domains.ts';

/**
 * What this process has served lately, for the dashboard (src/admin/admin-overview.ts):
 * API traffic per minute for an hour and per hour for a day, provider calls and fetch
 * outcomes, and the hosts most often refused or blocked. Per process and since start (each
 * replica shows its own; Prometheus gives the fleet's view); bounded whatever the traffic.
 */
export type TrafficClass = 'ok' | 'client_error' | 'rate_limited' | 'server_error';

/**
 * The kinds of request whose latency is shown apart: a search, a page fetch, an MCP call, a
 * site map and a crawl take different times (milliseconds on the local index, seconds for a
 * slow page, up to 120 s for a crawl), and one line of them all says nothing about any.
 */
export const REQUEST_KINDS = ['search', 'fetch', 'mcp', 'map', 'crawl'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

const SEARCH_ROUTES = new Set(['/v1/search', '/search', '/k/:key/search', '/v2/search', '/k/:key/v2/search']);
const FETCH_ROUTES = new Set([
  '/v1/fetch',
  '/v1/extract',
  '/extract',
  '/k/:key/extract',
  '/v2/scrape',
  '/k/:key/v2/scrape',
]);
const MAP_ROUTES = new Set(['/v1/map', '/map', '/k/:key/map', '/v2/map', '/k/:key/v2/map']);
// A crawl job's routes are not here: Firecrawl's POST /v2/crawl only queues a job, and its
// status routes (GET /v1/crawl/:id, /v2/crawl/:id) read one, each in milliseconds; counted
// as crawls they would drown the walks' own latency. They count in the totals only.
const CRAWL_ROUTES = new Set(['/v1/crawl', '/crawl', '/k/:key/crawl']);

/**
 * The kind of an agent route, by its template (both forms of /v1/search are one); undefined
 * for the rest (usage, clicks, docs, a crawl's status), which count in the totals only.
 */
export function requestKind(route: string): RequestKind | undefined {
  // The compat shapes' searches, extracts, maps and crawls (docs/compat.md) are of their kind too.
  if (SEARCH_ROUTES.has(route)) return 'search';
  // /v1/extract, Tavily's extract and Firecrawl's scrape read pages, as /v1/fetch does (a
  // batch's pages in parallel).
  if (FETCH_ROUTES.has(route)) return 'fetch';
  if (route === '/mcp') return 'mcp';
  // A site walk reads sitemaps and pages for seconds (a map) or up to two minutes (a crawl,
  // still inside the sketch's range): apart from the page reads, whose line it would lift
  // out of sight.
  if (MAP_ROUTES.has(route)) return 'map';
  if (CRAWL_ROUTES.has(route)) return 'crawl';
  return undefined;
}

export interface LatencyPoint {
  p50Ms: number | null;
  p95Ms: number | null;
}

interface ProviderBucket {
  requests: number;
  errors: number;
  timeouts: number;
  latency: LatencySketch;
}

interface Bucket {
  traffic: Record<TrafficClass, number>;
  latency: LatencySketch;
  byKind: Record<RequestKind, LatencySketch>;
  providers: Map<string, ProviderBucket>;
  fetches: Map<FetchOutcome, number>;
}

export interface TrafficPoint {
  start: number;
  counts: Record<TrafficClass, number>;
  /** Every agent request's latency. */
  p50Ms: number | null;
  p95Ms: number | null;
  /** Latency of each kind of request alone. */
  byKind: Record<RequestKind, LatencyPoint>;
}

export interface ProviderWindow {
  name: string;
  requests: number;
  errors: number;
  timeouts: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

/**
 * Fetch outcomes that say a site would not give its page, or that Scout would not go there:
 * the hosts behind them are listed. Caller mistakes (`invalid`) and Scout's own load (`busy`)
 * say nothing about the site.
 */
export const REFUSAL_OUTCOMES: ReadonlySet<FetchOutcome> = new Set([
  'refused',
  'blocked',
  'app_shell',
  'upstream',
  'timeout',
  'unsupported',
  'too_large',
]);

/** How many hosts are tracked: a host with more than 1/DOMAIN_SLOTS of all refusals is always listed. */
const DOMAIN_SLOTS = 200;

export interface Activity {
  readonly startedAt: number;
  /** One answered agent request; `kind` undefined for routes whose latency is not shown apart. */
  request(status: number, seconds: number, kind?: RequestKind, at?: number): void;
  provider(name: string, outcome: ProviderOutcome, seconds: number, at?: number): void;
  fetch(url: string, outcome: FetchOutcome, at?: number): void;
  traffic(window: 'hour' | 'day', now?: number): { bucketSeconds: number; points: TrafficPoint[] };
  /** Provider calls in the last hour. */
  providers(now?: number): ProviderWindow[];
  /** Fetches in the last 24 hours by outcome, every outcome present. */
  fetchOutcomes(now?: number): Record<FetchOutcome, number>;
  refusedDomains(n: number): DomainCount[];
}

const emptyBucket = (): Bucket => ({
  traffic: { ok: 0, client_error: 0, rate_limited: 0, server_error: 0 },
  latency: newSketch(),
  byKind: Object.fromEntries(REQUEST_KINDS.map((k) => [k, newSketch()])) as Record<RequestKind, LatencySketch>,
  providers: new Map(),
  fetches: new Map(),
});

/** Requests the traffic plots count: the agents' API, not the operator's own polling and probes. */
export const isAgentTraffic = (route: string): boolean =>
  !route.startsWith('/admin') && route !== '/metrics' && route !== '/healthz';

export function trafficClass(status: number): TrafficClass {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  if (status >= 400) return 'client_error';
  return 'ok';
}

export function createActivity(now: () => number = Date.now): Activity {
  const minutes = createRollingBuckets(60_000, 60, emptyBucket);
  const hours = createRollingBuckets(3_600_000, 24, emptyBucket);
  const domains = createTopDomains(DOMAIN_SLOTS);
  const both = (at: number) => [minutes.at(at), hours.at(at)];
  const providerIn = (map: Map<string, ProviderBucket>, name: string) => {
    let p = map.get(name);
    if (p === undefined) map.set(name, (p = { requests: 0, errors: 0, timeouts: 0, latency: newSketch() }));
    return p;
  };
  return {
    startedAt: now(),
    request(status, seconds, kind, at = now()) {
      const cls = trafficClass(status);
      for (const b of both(at)) {
        b.traffic[cls]++;
        observe(b.latency, seconds * 1000);
        if (kind !== undefined) observe(b.byKind[kind], seconds * 1000);
      }
    },
    provider(name, outcome, seconds, at = now()) {
      for (const b of both(at)) {
        const p = providerIn(b.providers, name);
        p.requests++;
        if (outcome === 'error') p.errors++;
        if (outcome === 'timeout') p.timeouts++;
        observe(p.latency, seconds * 1000);
      }
    },
    fetch(url, outcome, at = now()) {
      for (const b of both(at)) b.fetches.set(outcome, (b.fetches.get(outcome) ?? 0) + 1);
      if (!REFUSAL_OUTCOMES.has(outcome)) return;
      // Listed as results show hosts: lower case, without `www.`; '' when the url does not parse.
      const host = displayDomain(url);
      if (host !== '') domains.add(host, outcome, at);
    },
    traffic(window, at = now()) {
      const rings = window === 'hour' ? minutes : hours;
      return {
        bucketSeconds: rings.bucketMs / 1000,
        points: rings.series(at).map(({ start, bucket }) => ({
          start,
          counts: { ...bucket.traffic },
          p50Ms: quantile(bucket.latency, 0.5),
          p95Ms: quantile(bucket.latency, 0.95),
          byKind: Object.fromEntries(
            REQUEST_KINDS.map((k) => [
              k,
              { p50Ms: quantile(bucket.byKind[k], 0.5), p95Ms: quantile(bucket.byKind[k], 0.95) },
            ]),
          ) as Record<RequestKind, LatencyPoint>,
        })),
      };
    },
    providers(at = now()) {
      const sum = new Map<string, ProviderBucket>();
      for (const { bucket } of minutes.series(at)) {
        for (const [name, p] of bucket.providers) {
          const s = providerIn(sum, name);
          s.requests += p.requests;
          s.errors += p.errors;
          s.timeouts += p.timeouts;
          mergeInto(s.latency, p.latency);
        }
      }
      return [...sum].map(([name, p]) => ({
        name,
        requests: p.requests,
        errors: p.errors,
        timeouts: p.timeouts,
        p50Ms: quantile(p.latency, 0.5),
        p95Ms: quantile(p.latency, 0.95),
      }));
    },
    fetchOutcomes(at = now()) {
      const out = Object.fromEntries(FETCH_OUTCOMES.map((o) => [o, 0])) as Record<FetchOutcome, number>;
      for (const { bucket } of hours.series(at)) for (const [o, n] of bucket.fetches) out[o] += n;
      return out;
    },
    refusedDomains: (n) => domains.top(n),
  };
}
