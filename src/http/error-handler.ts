import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { isDomainError } from '../domain/errors.ts';
import { PATH_SEGMENT_MAX } from './path-limits.ts';
import { EARLY_ANSWER_BOUNDS } from './discard-body.ts';
import { noteFailure } from './failed-with.ts';
import { firecrawlError, firecrawlShaped } from './firecrawl-errors.ts';
import { tavilyError, tavilyShaped } from './tavily-errors.ts';
import { sendBodyRefusal } from './refuse-body.ts';
import { STATUS_OF } from '../domain/status-table.ts';
import { validationMessage, type ValidationIssue } from '../schemas/validation-message.ts';

/** Messages for errors Fastify itself raises, worded for the API caller. */
const FRAMEWORK_MESSAGES: Record<string, (e: FastifyError, limit: number) => { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: () => ({ status: 400, message: 'request body is not valid JSON; send a JSON object' }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => ({ status: 400, message: 'request body is empty; send a JSON object' }),
  // The spec has no 415 for a wrong *request* type (415 on fetch means the page's type).
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => ({
    status: 400,
    message: 'request body must be JSON: send Content-Type: application/json',
  }),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => ({ status: 400, message: 'Content-Length does not match the body sent' }),
  FST_ERR_CTP_BODY_TOO_LARGE: (_e, limit) => ({ status: 413, message: `request body is larger than ${limit} bytes` }),
  FST_ERR_BAD_URL: () => ({ status: 400, message: 'the request URL is malformed' }),
  // request-deadline.ts: the body did not arrive within SCOUT_HTTP_REQUEST_TIMEOUT_MS.
  SCOUT_REQUEST_TIMEOUT: (e) => ({ status: 408, message: e.message }),
  // Fastify's message quotes the whole path back; the caller only needs the rule.
  FST_ERR_MAX_PARAM_LENGTH: () => ({
    status: 414,
    message: `a segment of the URL path is longer than ${PATH_SEGMENT_MAX} characters; send a shorter path`,
  }),
};

export interface ErrorRendering {
  status: number;
  message: string;
  retryAfterS?: number;
}

/** Maps anything thrown during a request to the status and caller-facing message. */
export function renderError(error: unknown, request: FastifyRequest, bodyLimit: number): ErrorRendering {
  if (isDomainError(error)) {
    const out: ErrorRendering = { status: STATUS_OF[error.kind], message: error.message };
    if (error.retryAfterS !== undefined) out.retryAfterS = error.retryAfterS;
    return out;
  }
  const e = error as FastifyError;
  if (e.validation && e.validation.length > 0) {
    const where = e.validationContext === 'querystring' ? 'query string' : 'request body';
    const schema = (request.routeOptions.schema as Record<string, TSchema> | undefined)?.[
      e.validationContext === 'querystring' ? 'querystring' : 'body'
    ];
    const issue = e.validation[0] as unknown as ValidationIssue;
    return { status: 400, message: schema ? validationMessage(issue, schema, where) : `the ${where} is invalid` };
  }
  const known = e.code ? FRAMEWORK_MESSAGES[e.code] : undefined;
  if (known) return known(e, bodyLimit);
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return { status: e.statusCode, message: 'the request could not be processed; check its method, headers and body' };
  }
  return { status: 500, message: 'internal error; the x-request-id header identifies it in the server logs' };
}

/**
 * `shaped`: the body already serialized in a compat shape's error form (tavily-errors.ts, firecrawl-errors.ts);
 * a string is sent as it is, past the route's response schema.
 */
export function sendError(reply: FastifyReply, r: ErrorRendering, shaped?: string): FastifyReply {
  if (r.retryAfterS !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(r.retryAfterS))));
  reply.code(r.status).type('application/json; charset=utf-8');
  const body = shaped ?? { error: { status: r.status, message: r.message } };
  // The client may still be sending the body it is refused for: answer without resetting it.
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  if (r.status === 413) return sendBodyRefusal(reply, text);
  const req = reply.request.raw;
  const framesBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (framesBody && !req.complete) {
    // Answered before the body was read (401 and 429 come first, 408 because it is late).
    // Node hands over a request's headers before it parses the rest of the same packet, so
    // a small body sent with its headers is complete a moment later: then the connection
    // is kept. A body still arriving then gets a short discard and the connection closes.
    setImmediate(() => {
      if (req.complete) reply.send(body);
      else sendBodyRefusal(reply, text, EARLY_ANSWER_BOUNDS);
    });
    return reply;
  }
  return reply.send(body);
}

export function makeErrorHandler(bodyLimit: number) {
  return function errorHandler(this: unknown, error: unknown, request: FastifyRequest, reply: FastifyReply) {
    const rendered = renderError(error, request, bodyLimit);
    // The compat shapes answer errors in their own form (tavily-errors.ts, firecrawl-errors.ts).
    const shaped = tavilyShaped(request)
      ? tavilyError(error, rendered)
      : firecrawlShaped(request)
        ? firecrawlError(error, rendered)
        : undefined;
    const r = shaped?.rendering ?? rendered;
    if (isDomainError(error)) noteFailure(request, error);
    if (r.status >= 500 && !isDomainError(error)) request.log.error({ err: error }, 'unhandled error');
    else request.log.info({ status: r.status, reason: r.message }, 'request refused');
    if (r.status === 401) reply.header('www-authenticate', 'Bearer realm="scout"');
    return sendError(reply, r, shaped?.body);
  };
}
