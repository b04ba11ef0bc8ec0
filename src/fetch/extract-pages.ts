import { setMaxListeners } from 'node:events';
import { readBatch } from '../content/read-batch.ts';
import { DomainError, isDomainError } from '../domain/errors.ts';
import { STATUS_OF } from '../domain/status-table.ts';
import { EXTRACT_LIMITS, type ExtractFailure, type ExtractRequest, type ExtractResponse } from '../schemas/extract.ts';
import { FETCH_LIMITS } from '../schemas/fetch.ts';
import type { RequestContext } from '../search/search-service.ts';
import type { FetchPage } from './fetch-page.ts';
import { parseFetchUrl } from './url-guard.ts';

/**
 * POST /v1/extract: the URLs read at once through POST /v1/fetch's own service (address
 * policy on every hop, the fetch capacity in the caller's fair share, the per-host limit, the
 * byte ceiling, each page's fetch deadline), each cut to its window or its passages
 * (src/content/page-window.ts), answered in the order asked.
 */

/**
 * What the schema cannot say, checked before anything is charged or fetched: each URL parses
 * as an absolute http(s) URL (the message names which), start_index continues one page,
 * max_passages needs a query.
 */
export function checkExtractRequest(req: ExtractRequest): void {
  req.urls.forEach((url, i) => {
    try {
      parseFetchUrl(url);
    } catch (e) {
      if (isDomainError(e)) throw new DomainError('invalid', e.message.replace(/^url\b/, `urls[${i}]`));
      throw e;
    }
  });
  if (req.start_index !== undefined && req.start_index > 0 && req.urls.length > 1) {
    throw new DomainError(
      'invalid',
      `start_index continues one page: send it with exactly one URL (this request has ${req.urls.length})`,
    );
  }
  if (req.max_passages !== undefined && req.query === undefined) {
    throw new DomainError('invalid', 'max_passages needs query: it says how many passages per page the query keeps');
  }
}

/** A page's failure as /v1/fetch would answer it; a bug is a bare 500 (the log has it). */
function failure(url: string, e: unknown): ExtractFailure {
  return isDomainError(e)
    ? { url, ok: false, error: { status: STATUS_OF[e.kind], message: e.message } }
    : {
        url,
        ok: false,
        error: { status: 500, message: 'internal error; the request id identifies it in the server logs' },
      };
}

export function createExtractPages(fetch: FetchPage) {
  return {
    async run(req: ExtractRequest, ctx: RequestContext): Promise<ExtractResponse> {
      checkExtractRequest(req);
      // Every page of the batch listens to the caller's signal (its client gone): not a leak.
      if (ctx.signal !== undefined) setMaxListeners(4 * EXTRACT_LIMITS.urls.max, ctx.signal);
      const window = {
        startIndex: req.start_index ?? 0,
        maxChars:
          req.max_chars ?? (req.query === undefined ? FETCH_LIMITS.maxChars.default : FETCH_LIMITS.maxChars.max),
        query: req.query,
        maxPassages: req.max_passages ?? EXTRACT_LIMITS.maxPassages.default,
      };
      const outcomes = await readBatch(
        req.urls,
        // Whole, as far as Scout reads a page, so total_chars and every window are exact.
        (url) => fetch.run({ url, max_chars: FETCH_LIMITS.maxChars.max }, ctx),
        window,
        (error) => {
          if (!isDomainError(error)) ctx.log?.warn({ err: error }, 'extract: a page failed unexpectedly');
        },
      );
      return {
        request_id: ctx.requestId,
        results: outcomes.map((o) => ('page' in o ? o.page.entry : failure(o.url, o.error))),
        response_time_ms: Math.round((performance.now() - ctx.startedAt) * 100) / 100,
      };
    },
  };
}

export type ExtractPages = ReturnType<typeof createExtractPages>;
