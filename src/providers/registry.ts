import { DomainError } from '../domain/errors.ts';
import { fetchCount, filterResults } from '../search/result-filter.ts';
import type { ProviderResult, SearchQuery } from '../search/search-types.ts';
import type { ProviderHealth } from '../domain/provider-health.ts';
import { attempt, countsAgainstProvider, failureReason, healthOf } from './attempt.ts';
import { CircuitBreaker, type BreakerState } from './circuit-breaker.ts';
import { reciprocalRankFusion } from './fusion.ts';
import { Pacer, PacerRefusal, type PacerClock } from './pacer.ts';
import { cleanResults, dedupeResults } from './merge-results.ts';
import { ProviderError, type SearchProvider } from './provider.ts';
import type { ResultCache } from '../store/ports.ts';
import { answerCache, createResultCache, type AnswerCache } from './result-cache.ts';
import type { BackendLogger, SearchAnswer, SearchBackend } from '../search/search-backend.ts';

export type SearchMode = 'failover' | 'fusion';

export interface SearchBackendOptions {
  /** failover (default): first provider that answers; fusion: all in parallel, merged by RRF. */
  mode?: SearchMode;
  /** Per-provider time limit; default 6000 ms. */
  providerTimeoutMs?: number;
  /** Whole search, failovers included; default 15000 ms. */
  deadlineMs?: number;
  /** Result cache time to live; default 300000 ms; 0 disables. */
  cacheTtlMs?: number;
  /** Result cache entries; default 1000. */
  cacheMax?: number;
  /** A cache shared by replicas (Redis) instead of the in-process one made from cacheTtlMs and cacheMax. */
  cache?: ResultCache;
  /** Consecutive failures that suspend a provider (default 3) and for how long (default 30 s). */
  breaker?: { threshold: number; cooldownMs: number };
  /** How long an engine that refused automated queries (a block) is skipped; default 600000 ms. */
  blockCooldownMs?: number;
  /** Clock and timers of the providers' pacers (tests); default real time. */
  pacerClock?: PacerClock;
  logger?: BackendLogger;
  /** Told of every provider call as it ends (metrics): ok, timeout or error, and how long it took. */
  onProviderCall?: (provider: string, outcome: 'ok' | 'timeout' | 'error', seconds: number) => void;
  /** Clock of the breaker and the cache (tests); timeouts always use real time. */
  now?: () => number;
}

export interface ProviderStatus {
  name: string;
  state: BreakerState;
  consecutiveFailures: number;
  /** How its last call ended, if it had one since start (scout providers check's words). */
  last?: { health: ProviderHealth; at: number; ms: number; reason?: string };
  /** Callers waiting for their turn in its pacing queue (paced providers only). */
  waiting?: number;
}

export interface ManagedSearchBackend extends SearchBackend {
  search(query: SearchQuery, signal?: AbortSignal, log?: BackendLogger): Promise<SearchAnswer & { cached: boolean }>;
  /** Breaker state per provider, for health checks and metrics. */
  status(): ProviderStatus[];
}

export const SEARCH_DEFAULTS = {
  providerTimeoutMs: 6000,
  deadlineMs: 15_000,
  cacheTtlMs: 300_000,
  cacheMax: 1000,
  breaker: { threshold: 3, cooldownMs: 30_000 },
  blockCooldownMs: 600_000,
} as const;

const NO_LOG: BackendLogger = { warn: () => undefined, info: () => undefined };

interface Slot {
  provider: SearchProvider;
  breaker: CircuitBreaker;
  pacer?: Pacer;
  last?: ProviderStatus['last'];
}

interface Outcome {
  name: string;
  results?: ProviderResult[];
  /** The provider's URLs are exact (its sections differ by fragment): fusion keeps them apart. */
  exact?: boolean;
  reason?: string;
}

/** Cleans URLs, enforces what the provider did not, merges duplicates. */
function finalize(p: SearchProvider, raw: readonly ProviderResult[], query: SearchQuery): ProviderResult[] {
  if (p.uniqueUrls) return filterResults(raw, query, p.honours);
  return dedupeResults(filterResults(cleanResults(raw), query, p.honours));
}

/**
 * Runs the configured providers for each search: per-provider timeouts inside one overall
 * deadline, a circuit breaker per provider, failover in order (or fusion), Scout-side
 * filters, URL clean-up and dedupe, and a short-lived cache of final answers. 502 only when
 * every provider failed, naming each and why; the answer itself never mentions failover.
 */
export function createSearchBackend(
  providers: readonly SearchProvider[],
  options: SearchBackendOptions = {},
): ManagedSearchBackend {
  const o = {
    mode: options.mode ?? 'failover',
    providerTimeoutMs: options.providerTimeoutMs ?? SEARCH_DEFAULTS.providerTimeoutMs,
    deadlineMs: options.deadlineMs ?? SEARCH_DEFAULTS.deadlineMs,
    cacheTtlMs: options.cacheTtlMs ?? SEARCH_DEFAULTS.cacheTtlMs,
    cacheMax: options.cacheMax ?? SEARCH_DEFAULTS.cacheMax,
    breaker: options.breaker ?? SEARCH_DEFAULTS.breaker,
    blockCooldownMs: options.blockCooldownMs ?? SEARCH_DEFAULTS.blockCooldownMs,
  };
  const wallClock = options.now ?? Date.now;
  const backendLog = options.logger ?? NO_LOG;
  const slots: Slot[] = providers.map((provider) => ({
    provider,
    breaker: new CircuitBreaker({ ...o.breaker, ...(options.now ? { now: options.now } : {}) }),
    ...(provider.pacing ? { pacer: new Pacer(provider.pacing, options.pacerClock) } : {}),
  }));
  const cache: AnswerCache = options.cache
    ? answerCache(options.cache)
    : createResultCache({ ttlMs: o.cacheTtlMs, max: o.cacheMax, ...(options.now ? { now: options.now } : {}) });
  // Providers whose answers follow local writes (the local index) key the cache by their
  // revision, read before they are asked: a write, from anywhere, is a miss on the next search.
  // (Not read at all when the cache is off: it would only cost the search a read transaction.)
  const revised = cache.enabled ? slots.filter((s) => s.provider.revision !== undefined).map((s) => s.provider) : [];
  const revision = (): string => (revised.length === 0 ? '' : `${revised.map((p) => p.revision!()).join(' ')}\n`);

  /** One provider, within what is left of the deadline; throws only when the caller cancelled. */
  async function run(
    slot: Slot,
    query: SearchQuery,
    deadlineAt: number,
    log: BackendLogger,
    signal?: AbortSignal,
  ): Promise<Outcome> {
    const { provider: p, breaker } = slot;
    const left = Math.floor(deadlineAt - performance.now());
    if (left <= 0) return { name: p.name, reason: `not tried (search deadline of ${o.deadlineMs} ms reached)` };
    if (!breaker.allow()) {
      const s = Math.max(1, Math.ceil(breaker.retryInMs() / 1000));
      return { name: p.name, reason: `suspended for ${s} s after repeated failures` };
    }
    let limitMs = Math.min(o.providerTimeoutMs, left);
    let done: (() => void) | undefined;
    if (slot.pacer) {
      const waitFrom = performance.now();
      try {
        done = await slot.pacer.acquire(limitMs, signal);
      } catch (e) {
        breaker.release();
        if (signal?.aborted || (e instanceof PacerRefusal && e.aborted))
          throw new DomainError('upstream', 'the search was cancelled by the client');
        const busy = new ProviderError(p.name, 'busy', e instanceof Error ? e.message : 'paced');
        log.warn({ provider: p.name, failure: 'busy', reason: busy.message }, 'search provider skipped');
        return { name: p.name, reason: busy.message };
      }
      limitMs -= Math.ceil(performance.now() - waitFrom);
    }
    const timeoutMs = Math.max(1, limitMs);
    const label = timeoutMs < o.providerTimeoutMs ? `timeout after ${timeoutMs} ms (search deadline)` : undefined;
    const started = performance.now();
    try {
      const raw = await attempt(p, { ...query, maxResults: fetchCount(query, p.honours) }, timeoutMs, signal, label);
      const ms = performance.now() - started;
      options.onProviderCall?.(p.name, 'ok', ms / 1000);
      slot.last = { health: 'ok', at: wallClock(), ms: Math.round(ms) };
      if (breaker.success()) log.info({ provider: p.name }, 'search provider resumed');
      return { name: p.name, results: finalize(p, raw, query), ...(p.uniqueUrls ? { exact: true } : {}) };
    } catch (e) {
      if (signal?.aborted) {
        breaker.release();
        throw new DomainError('upstream', 'the search was cancelled by the client');
      }
      const ms = performance.now() - started;
      const outcome = e instanceof ProviderError && e.failure === 'timeout' ? 'timeout' : 'error';
      options.onProviderCall?.(p.name, outcome, ms / 1000);
      slot.last = { health: healthOf(e), at: wallClock(), ms: Math.round(ms), reason: failureReason(e) };
      recordFailure(slot, e, Math.round(ms), log);
      return { name: p.name, reason: failureReason(e) };
    } finally {
      done?.();
    }
  }

  function recordFailure(slot: Slot, e: unknown, ms: number, log: BackendLogger): void {
    const { provider: p, breaker } = slot;
    const counted = countsAgainstProvider(e);
    // A failure that proves nothing about the provider (its own refusal of the query) gives a
    // half-open trial back.
    if (!counted) breaker.release();
    const pe = e instanceof ProviderError ? e : undefined;
    // A block page will be shown to the next call too: suspend at once, for longer.
    const blocked = pe?.failure === 'blocked';
    const opened = blocked ? breaker.trip(o.blockCooldownMs) : counted ? breaker.failure() : false;
    log.warn(
      {
        provider: p.name,
        failure: pe?.failure ?? 'internal',
        reason: failureReason(e),
        ...(pe?.status !== undefined ? { status: pe.status } : {}),
        ...(pe?.detail ? { detail: pe.detail } : {}),
        ...(pe ? {} : { err: e instanceof Error ? { name: e.name, message: e.message } : String(e) }),
        ms,
      },
      'search provider failed',
    );
    if (opened) {
      log.warn(
        {
          provider: p.name,
          cooldownMs: blocked ? o.blockCooldownMs : o.breaker.cooldownMs,
          failures: breaker.consecutiveFailures,
          ...(blocked ? { blocked: true } : {}),
        },
        'search provider suspended',
      );
    }
  }

  function allFailed(outcomes: readonly Outcome[]): never {
    const list = outcomes.map((x) => `${x.name}: ${x.reason ?? 'failed'}`).join('; ');
    throw new DomainError('upstream', `every search provider failed, try again later: ${list}`);
  }

  async function failover(
    query: SearchQuery,
    log: BackendLogger,
    signal?: AbortSignal,
  ): Promise<SearchAnswer & { cached: boolean }> {
    const deadlineAt = performance.now() + o.deadlineMs;
    const failed: Outcome[] = [];
    for (const slot of slots) {
      const out = await run(slot, query, deadlineAt, log, signal);
      if (out.results) {
        if (failed.length)
          log.info(
            { provider: out.name, failed: failed.map((f) => `${f.name}: ${f.reason}`) },
            'search answered after failover',
          );
        return { results: out.results.slice(0, query.maxResults), providers: [out.name], cached: false };
      }
      failed.push(out);
    }
    return allFailed(failed);
  }

  async function fusion(
    query: SearchQuery,
    log: BackendLogger,
    signal?: AbortSignal,
  ): Promise<SearchAnswer & { cached: boolean }> {
    const deadlineAt = performance.now() + o.deadlineMs;
    const outcomes = await Promise.all(slots.map((slot) => run(slot, query, deadlineAt, log, signal)));
    const answered = outcomes.filter((x) => x.results);
    if (answered.length === 0) return allFailed(outcomes);
    const fused = reciprocalRankFusion(
      answered.map((x) => x.results ?? []),
      undefined,
      answered.map((x) => x.exact === true),
    );
    return { results: fused.slice(0, query.maxResults), providers: answered.map((x) => x.name), cached: false };
  }

  return {
    async search(query, signal, log = backendLog) {
      const at = revision();
      const hit = await cache.get(query, at);
      if (hit) return { results: hit.results.slice(), providers: hit.providers.slice(), cached: true };
      if (slots.length === 0)
        throw new DomainError('unavailable', 'no search provider is configured (SCOUT_SEARCH_PROVIDERS)');
      const answer = o.mode === 'fusion' ? await fusion(query, log, signal) : await failover(query, log, signal);
      await cache.set(query, answer, at);
      return answer;
    },
    status: () =>
      slots.map(({ provider, breaker, pacer, last }) => ({
        name: provider.name,
        state: breaker.state(),
        consecutiveFailures: breaker.consecutiveFailures,
        ...(last ? { last: { ...last } } : {}),
        ...(pacer ? { waiting: pacer.waiting } : {}),
      })),
  };
}
