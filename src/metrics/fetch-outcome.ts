import { isDomainError } from '../domain/errors.ts';

/**
 * The bounded label of a fetch's outcome (scout_fetch_requests_total{outcome}): what an
 * operator alerts on, never the URL. `blocked` is a bot challenge, CAPTCHA or WAF page;
 * `app_shell` a page that needs JavaScript; both are 502 to the caller.
 */
export type FetchOutcome =
  | 'ok'
  | 'invalid'
  | 'refused'
  | 'blocked'
  | 'app_shell'
  | 'unsupported'
  | 'upstream'
  | 'too_large'
  | 'busy'
  | 'timeout'
  | 'error';

export const FETCH_OUTCOMES: readonly FetchOutcome[] = [
  'ok',
  'invalid',
  'refused',
  'blocked',
  'app_shell',
  'unsupported',
  'upstream',
  'too_large',
  'busy',
  'timeout',
  'error',
];

export function fetchOutcome(error?: unknown): FetchOutcome {
  if (error === undefined) return 'ok';
  if (!isDomainError(error)) return 'error';
  if (error.reason === 'blocked' || error.reason === 'app_shell') return error.reason;
  switch (error.kind) {
    case 'invalid':
      return 'invalid';
    case 'forbidden':
      return 'refused';
    case 'unsupported_media':
      return 'unsupported';
    case 'payload_too_large':
      return 'too_large';
    case 'upstream':
      return 'upstream';
    case 'unavailable':
    case 'rate_limited':
      return 'busy';
    case 'timeout':
      return 'timeout';
    default:
      return 'error';
  }
}
