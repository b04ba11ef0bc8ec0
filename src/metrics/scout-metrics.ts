import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PROVIDER_HEALTHS } from '../domain/provider-health.ts';
import type { AnswerOutcome } from './answer-outcome.ts';
import { FETCH_OUTCOMES, type FetchOutcome } from './fetch-outcome.ts';

/** What the gauges read at scrape time (nothing is polled in between). */
export interface MetricSources {
  /** The month's search budget; may reject (the store is down), then the gauges are left out of that scrape. */
  budget(): Promise<{ total: number; used: number; left: number }>;
  /** Circuit breaker per provider. */
  providers(): { name: string; state: string; last?: { health: string } }[];
  /** Documents the local index ranks and whether it is ranked in memory. */
  index(): { state: string; documents: number };
  /** Ad events waiting to be written. */
  eventBacklog(): number;
  /** Pages waiting for an extraction worker, when there is a pool. */
  extractQueue?(): number;
}

export type ProviderOutcome = 'ok' | 'timeout' | 'error';
export type AdEventKind = 'impression' | 'read' | 'click';
/** Another API's shape a request was answered in (docs/compat.md). */
export type CompatShape = 'searxng' | 'tavily' | 'firecrawl';

/**
 * Scout's Prometheus metrics (docs/operations.md, "Metrics"), in a registry of its own per
 * Scout instance. Names start with `scout_`, units follow Prometheus conventions, and every
 * label has a bounded set of values: route templates, status classes, provider names,
 * outcomes; never a key, a query or a URL.
 */
export interface ScoutMetrics {
  readonly registry: Registry;
  /**
   * One answered HTTP request: `route` is the route's template ('unmatched' for 404s);
   * `outcome` what Scout did (an origin's failure is not Scout's: src/metrics/answer-outcome.ts).
   */
  request(
    route: string,
    method: string,
    status: number,
    seconds: number,
    outcome: AnswerOutcome,
    shape?: CompatShape,
  ): void;
  /** One answered request the anonymous tier admitted (no key): by route template and status class, never the address. */
  anonymousRequest(route: string, status: number): void;
  provider(name: string, outcome: ProviderOutcome, seconds: number): void;
  fetch(outcome: FetchOutcome, bytes: number): void;
  extract(seconds: number): void;
  adEvents(kind: AdEventKind, count: number): void;
  /** The text exposition format, gauges read now. */
  render(): Promise<string>;
  readonly contentType: string;
}

const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;

export function createScoutMetrics(sources: MetricSources): ScoutMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'scout_' });
  const registers = [registry];

  const requests = new Counter({
    name: 'scout_http_requests_total',
    help: 'HTTP requests answered, by route template, method, status class and outcome (ok, client_error, upstream_error, budget_exhausted, server_error: only the last is Scout failing).',
    labelNames: ['route', 'method', 'status_class', 'outcome'],
    registers,
  });
  const duration = new Histogram({
    name: 'scout_http_request_duration_seconds',
    help: "Time from a request's arrival to its answer, by route template and method.",
    labelNames: ['route', 'method'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const compatRequests = new Counter({
    name: 'scout_compat_requests_total',
    help: "HTTP requests answered in another API's shape (searxng, tavily, firecrawl), by shape and status class; POST /search counts as searxng for a form and tavily for a JSON body.",
    labelNames: ['shape', 'status_class'],
    registers,
  });
  const rateLimited = new Counter({
    name: 'scout_rate_limit_refusals_total',
    help: 'Requests refused with 429 by the rate limit (per key, or per address for the anonymous tier), by route template.',
    labelNames: ['route'],
    registers,
  });
  const anonymous = new Counter({
    name: 'scout_anonymous_requests_total',
    help: 'Requests without a key admitted by the anonymous tier (SCOUT_ANONYMOUS_RPM), by route template and status class; they are in scout_http_requests_total too.',
    labelNames: ['route', 'status_class'],
    registers,
  });
  const providerCalls = new Counter({
    name: 'scout_provider_requests_total',
    help: 'Calls to upstream search providers, by provider and outcome (ok, timeout, error).',
    labelNames: ['provider', 'outcome'],
    registers,
  });
  const providerDuration = new Histogram({
    name: 'scout_provider_request_duration_seconds',
    help: 'Time an upstream search provider took to answer or fail, by provider.',
    labelNames: ['provider'],
    buckets: [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15],
    registers,
  });
  new Gauge({
    name: 'scout_provider_breaker_open',
    help: 'Whether a provider is suspended by its circuit breaker (1 open, 0.5 half-open trial, 0 closed).',
    labelNames: ['provider'],
    registers,
    collect() {
      this.reset();
      for (const p of sources.providers())
        this.set({ provider: p.name }, p.state === 'open' ? 1 : p.state === 'half_open' ? 0.5 : 0);
    },
  });
  new Gauge({
    name: 'scout_provider_health',
    help: 'How the last call of each provider ended (1 on its health: ok, blocked, parse_failed, unreachable, error); absent before its first call.',
    labelNames: ['provider', 'health'],
    registers,
    collect() {
      this.reset();
      for (const p of sources.providers()) {
        if (p.last === undefined) continue;
        for (const health of PROVIDER_HEALTHS) this.set({ provider: p.name, health }, p.last.health === health ? 1 : 0);
      }
    },
  });
  const fetches = new Counter({
    name: 'scout_fetch_requests_total',
    help: 'Page fetches (POST /v1/fetch and advanced-search pages) by outcome.',
    labelNames: ['outcome'],
    registers,
  });
  const fetchBytes = new Counter({
    name: 'scout_fetch_content_bytes_total',
    help: 'Characters of markdown returned by successful fetches (UTF-16 code units, about bytes for Latin text).',
    registers,
  });
  const extractTime = new Histogram({
    name: 'scout_extract_duration_seconds',
    help: 'Time to turn one fetched page into markdown, waiting for a worker included.',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  if (sources.extractQueue) {
    const queued = sources.extractQueue;
    new Gauge({
      name: 'scout_extract_queue_pages',
      help: 'Pages waiting for a free extraction worker.',
      registers,
      collect() {
        this.set(queued());
      },
    });
  }
  const adEvents = new Counter({
    name: 'scout_sponsored_events_total',
    help: 'Sponsored impressions, agent reads and clicks written to the store (reads and clicks: every one, repeats included).',
    labelNames: ['kind'],
    registers,
  });
  new Gauge({
    name: 'scout_sponsored_event_backlog',
    help: 'Ad events waiting to be written (grows while the store fails).',
    registers,
    collect() {
      this.set(sources.eventBacklog());
    },
  });
  new Gauge({
    name: 'scout_index_documents',
    help: 'Documents in the local index.',
    registers,
    collect() {
      this.set(sources.index().documents);
    },
  });
  new Gauge({
    name: 'scout_index_ranked_in_memory',
    help: 'Whether the local index is ranked in memory now (1), or not (0: loading, over the limit, or off).',
    registers,
    collect() {
      this.set(sources.index().state === 'ready' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'scout_search_budget_units',
    help: "The month's search budget (UTC), in units: total, used and left.",
    labelNames: ['state'],
    registers,
    async collect() {
      this.reset();
      try {
        const b = await sources.budget();
        this.set({ state: 'total' }, b.total);
        this.set({ state: 'used' }, b.used);
        this.set({ state: 'left' }, b.left);
      } catch {
        // The store is down: no budget figures in this scrape rather than a failed scrape.
      }
    },
  });

  // Zero series for every outcome, so rate() and alerts see them before the first one happens.
  for (const outcome of FETCH_OUTCOMES) fetches.inc({ outcome }, 0);
  for (const kind of ['impression', 'read', 'click']) adEvents.inc({ kind }, 0);

  return {
    registry,
    contentType: registry.contentType,
    request(route, method, status, seconds, outcome, shape) {
      if (shape !== undefined) compatRequests.inc({ shape, status_class: statusClass(status) });
      requests.inc({ route, method, status_class: statusClass(status), outcome });
      duration.observe({ route, method }, seconds);
      if (status === 429) rateLimited.inc({ route });
    },
    anonymousRequest(route, status) {
      anonymous.inc({ route, status_class: statusClass(status) });
    },
    provider(name, outcome, seconds) {
      providerCalls.inc({ provider: name, outcome });
      providerDuration.observe({ provider: name }, seconds);
    },
    fetch(outcome, bytes) {
      fetches.inc({ outcome });
      if (bytes > 0) fetchBytes.inc(bytes);
    },
    extract(seconds) {
      extractTime.observe(seconds);
    },
    adEvents(kind, count) {
      adEvents.inc({ kind }, count);
    },
    render: () => registry.metrics(),
  };
}
