import type { ErrorKind } from './errors.ts';

/** The one table from domain error kinds to HTTP statuses (ARCHITECTURE principle 2). */
export const STATUS_OF: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media: 415,
  rate_limited: 429,
  upstream: 502,
  unavailable: 503,
  timeout: 504,
};
