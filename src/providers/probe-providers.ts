import type { ProviderHealth } from '../domain/provider-health.ts';
import { attempt, failureReason, healthOf } from './attempt.ts';
import type { SearchProvider } from './provider.ts';

/** One provider's answer to the probe query (`scout providers check`). */
export interface ProbeResult {
  provider: string;
  health: ProviderHealth;
  /** Results read; 0 when it failed. */
  results: number;
  ms: number;
  /** Why it failed (caller-safe text); absent when it answered. */
  detail?: string;
}

/** The query `scout providers check` sends when given none: every engine has pages on it. */
export const PROBE_QUERY = 'python programming language';

/**
 * Sends one query to each provider at once, each within `timeoutMs`, and says how each
 * ended. Straight to the providers, not through the registry: no cache, no breaker, no
 * failover, so each answer is that provider's own, now.
 */
export async function probeProviders(
  providers: readonly SearchProvider[],
  query: string,
  timeoutMs: number,
): Promise<ProbeResult[]> {
  return Promise.all(
    providers.map(async (p) => {
      const started = performance.now();
      const ms = () => Math.round(performance.now() - started);
      try {
        const q = { query, maxResults: 10, includeDomains: [], excludeDomains: [], depth: 'basic' as const };
        const results = await attempt(p, q, timeoutMs, undefined);
        return { provider: p.name, health: 'ok' as const, results: results.length, ms: ms() };
      } catch (e) {
        return { provider: p.name, health: healthOf(e), results: 0, ms: ms(), detail: failureReason(e) };
      }
    }),
  );
}
