import type { FastifyRequest } from 'fastify';
import type { CompatShape } from '../metrics/scout-metrics.ts';
import { tavilyShaped } from './tavily-errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers in another API's shape (docs/compat.md), for its metrics label. */
    compatShape?: CompatShape;
  }
}

/**
 * The shape a request was answered in, or undefined for Scout's own API. POST /search is
 * SearXNG's route for a form and Tavily's for a JSON body: its errors say which (tavilyShaped).
 */
export const compatShapeOf = (request: FastifyRequest): CompatShape | undefined =>
  tavilyShaped(request) ? 'tavily' : request.routeOptions.config?.compatShape;
