import type { FastifyRequest } from 'fastify';
import { isDomainError } from '../domain/errors.ts';
import type { ErrorRendering } from './error-handler.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Errors in Firecrawl's shape `{"success":false,"error":…}` (the /v2 routes). */
    firecrawlErrors?: boolean;
  }
}

/** Firecrawl's status for credits run out ("payment required"): its clients stop rather than retry. */
export const PAYMENT_REQUIRED = 402;
/** Firecrawl's status for a scrape past its timeout. */
export const SCRAPE_TIMEOUT = 408;

/** The request is answered in the Firecrawl shape, errors included. */
export const firecrawlShaped = (request: FastifyRequest): boolean =>
  request.routeOptions.config?.firecrawlErrors === true;

/**
 * Scout's rendering → Firecrawl's: the message in `error`, the monthly search budget running
 * out as 402 (Firecrawl's credits) instead of 503, so a client tells it from an outage, and a
 * page not read in time as 408 (Firecrawl's scrape timeout) instead of 504. The SDK retries a
 * 502 twice by itself; every other status reaches the caller at once.
 */
export function firecrawlError(error: unknown, r: ErrorRendering): { rendering: ErrorRendering; body: string } {
  const budget = isDomainError(error) && error.reason === 'budget_exhausted';
  const timeout = isDomainError(error) && error.kind === 'timeout';
  const status = budget ? PAYMENT_REQUIRED : timeout ? SCRAPE_TIMEOUT : r.status;
  return { rendering: { ...r, status }, body: JSON.stringify({ success: false, error: r.message }) };
}
