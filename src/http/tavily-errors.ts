import type { FastifyRequest } from 'fastify';
import { isDomainError } from '../domain/errors.ts';
import { isJsonRequest } from './auth.ts';
import type { ErrorRendering } from './error-handler.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Errors in Tavily's shape `{"detail":{"error":…}}`: 'always' (POST /extract), or
     * 'json-body' (POST /search, whose JSON body is the Tavily shape and form the SearXNG one).
     */
    tavilyErrors?: 'always' | 'json-body';
  }
}

/** Tavily's status for an exhausted plan: its SDKs raise their usage-limit error on it. */
export const PLAN_LIMIT_STATUS = 432;

/** The request is answered in the Tavily shape, errors included. */
export function tavilyShaped(request: FastifyRequest): boolean {
  const mode = request.routeOptions.config?.tavilyErrors;
  return mode === 'always' || (mode === 'json-body' && isJsonRequest(request));
}

/**
 * Scout's rendering → Tavily's: the message in detail.error, and the monthly search budget
 * running out as 432 (Tavily's plan limit) instead of 503, so a client tells it from an outage.
 */
export function tavilyError(error: unknown, r: ErrorRendering): { rendering: ErrorRendering; body: string } {
  const budget = isDomainError(error) && error.reason === 'budget_exhausted';
  const rendering = budget ? { ...r, status: PLAN_LIMIT_STATUS } : r;
  return { rendering, body: JSON.stringify({ detail: { error: r.message } }) };
}
