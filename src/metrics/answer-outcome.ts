/**
 * What Scout did with one HTTP request (scout_http_requests_total{outcome}), beside the status
 * class it answered with. A fetched site's 404 is answered 502 ("upstream fetch failed") and a
 * search provider's outage 502 too, yet neither is Scout failing: an alert on Scout's own
 * errors must not fire because agents fetch dead links. So a 5xx is `upstream_error` when an
 * origin or a provider failed or timed out, `budget_exhausted` when the month's budget ran
 * out (its own gauge alerts on that), and `server_error` only when Scout itself failed (a
 * store down, capacity full, a bug).
 */
export type AnswerOutcome = 'ok' | 'client_error' | 'upstream_error' | 'budget_exhausted' | 'server_error';

export const ANSWER_OUTCOMES: readonly AnswerOutcome[] = [
  'ok',
  'client_error',
  'upstream_error',
  'budget_exhausted',
  'server_error',
];

/** `error`: the domain error the request failed with, if it failed with one. */
export function answerOutcome(status: number, error?: { kind: string; reason?: string }): AnswerOutcome {
  if (status < 400) return 'ok';
  // The DomainError reason src/search/search-budget.ts gives an exhausted month: 503 on /v1,
  // answered 432 in the Tavily shape and 402 in the Firecrawl one, the same outcome each.
  if (error?.reason === 'budget_exhausted') return 'budget_exhausted';
  // DomainError kinds `upstream` (502) and `timeout` (504; 408 in the Firecrawl shape) are an
  // origin or provider failing.
  if (error?.kind === 'upstream' || error?.kind === 'timeout') return 'upstream_error';
  if (status < 500) return 'client_error';
  return 'server_error';
}
