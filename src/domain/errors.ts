/**
 * The one error type the domain throws. The HTTP error handler maps `kind` to a status
 * (see src/http/error-handler.ts); `message` goes to the caller verbatim, so it must say
 * what to change and must never carry secrets, stack traces or internal paths.
 */
export type ErrorKind =
  | 'invalid' // 400
  | 'unauthorized' // 401
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'method_not_allowed' // 405
  | 'payload_too_large' // 413
  | 'unsupported_media' // 415
  | 'rate_limited' // 429
  | 'upstream' // 502
  | 'unavailable' // 503
  | 'timeout'; // 504

export class DomainError extends Error {
  readonly kind: ErrorKind;
  /** Seconds, for rate_limited (Retry-After) and unavailable answers that know when to retry. */
  readonly retryAfterS?: number;
  /** A finer cause than the kind, for metrics (e.g. `blocked`: a bot challenge or WAF page); never sent to clients. */
  readonly reason?: string;

  constructor(kind: ErrorKind, message: string, options?: { retryAfterS?: number; cause?: unknown; reason?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.kind = kind;
    if (options?.retryAfterS !== undefined) this.retryAfterS = options.retryAfterS;
    if (options?.reason !== undefined) this.reason = options.reason;
  }
}

export const isDomainError = (e: unknown): e is DomainError => e instanceof DomainError;
