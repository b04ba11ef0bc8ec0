import type { FastifyRequest } from 'fastify';
import type { DomainError } from '../domain/errors.ts';

/**
 * The domain error a request was answered with, kept from the error handler to the
 * onResponse hook, which counts the answer by what Scout did (src/metrics/answer-outcome.ts).
 * Keyed by the raw request so nothing outlives it.
 */
const failures = new WeakMap<object, DomainError>();

export const noteFailure = (request: FastifyRequest, error: DomainError): void => {
  failures.set(request.raw, error);
};

export const failureOf = (request: FastifyRequest): DomainError | undefined => failures.get(request.raw);
