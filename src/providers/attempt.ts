import type { ProviderResult, SearchQuery } from '../search/search-types.ts';
import type { ProviderHealth } from '../domain/provider-health.ts';
import { ProviderError, type SearchProvider } from './provider.ts';

const NEVER_ABORTED = new AbortController().signal;

/**
 * One call of one provider under a time limit. The limit is enforced here, not trusted to
 * the provider: the provider's signal is aborted and the call settles as a timeout even if
 * the provider ignores the signal (a synchronous local index, a stuck socket).
 */
export async function attempt(
  provider: SearchProvider,
  query: SearchQuery,
  timeoutMs: number,
  outer: AbortSignal | undefined,
  timeoutLabel = `timeout after ${timeoutMs} ms`,
): Promise<ProviderResult[]> {
  if (provider.synchronous) {
    // Its answer is settled before any timer could fire: the race below would only add an
    // AbortController, a timer and two promises to every local search.
    if (outer?.aborted) throw new ProviderError(provider.name, 'timeout', 'the search was cancelled before it started');
    return provider.search(query, outer ?? NEVER_ABORTED);
  }
  const ac = new AbortController();
  const onOuter = () => ac.abort(outer?.reason);
  if (outer?.aborted) ac.abort(outer.reason);
  else outer?.addEventListener('abort', onOuter, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new ProviderError(provider.name, 'timeout', timeoutLabel);
      ac.abort(err);
      reject(err);
    }, timeoutMs);
  });
  try {
    return await Promise.race([provider.search(query, ac.signal), timeout]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
  }
}

/** The caller-safe reason of a failure, as listed in the 502 message. */
export function failureReason(e: unknown): string {
  return e instanceof ProviderError ? e.message : 'failed (internal error)';
}

/**
 * Whether a failure says something about the provider's health. An upstream that refuses
 * this one request (HTTP 4xx other than auth, 408 and 429) is failed over but not held
 * against the provider: the next, different request may well succeed.
 */
export function countsAgainstProvider(e: unknown): boolean {
  if (e instanceof ProviderError && e.failure === 'busy') return false;
  if (!(e instanceof ProviderError) || e.failure !== 'http' || e.status === undefined) return true;
  return !(e.status >= 400 && e.status < 500 && e.status !== 408);
}

/** The health a failure shows (see ProviderHealth). */
export function healthOf(e: unknown): ProviderHealth {
  if (!(e instanceof ProviderError)) return 'error';
  switch (e.failure) {
    case 'blocked':
    case 'rate_limited':
      return 'blocked';
    case 'malformed':
      return 'parse_failed';
    case 'network':
    case 'timeout':
      return 'unreachable';
    default:
      return 'error';
  }
}
