import { DomainError, type ErrorKind } from '../domain/errors.ts';
import { STATUS_OF } from '../domain/status-table.ts';
import { CRAWL_LIMITS } from '../schemas/crawl.ts';
import type { ToolBackend } from './tool-backend.ts';

export interface HttpBackendOptions {
  /** Base URL of the running Scout (SCOUT_URL), without a trailing slash. */
  baseUrl: string;
  apiKey: string;
  /** Longest wait for one answer; above Scout's own search and fetch deadlines. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const KIND_OF = new Map<number, ErrorKind>(
  Object.entries(STATUS_OF).map(([kind, status]) => [status, kind as ErrorKind]),
);

/** The DomainError for a non-2xx answer: the server's own message, its Retry-After. */
async function failure(res: Response, what: string): Promise<DomainError> {
  let message = `${what} answered HTTP ${res.status}`;
  try {
    const body = (await res.json()) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') message = body.error.message;
  } catch {
    // Not Scout's Error shape (a proxy's page): the status says enough.
  }
  const retry = Number(res.headers.get('retry-after'));
  const kind = KIND_OF.get(res.status) ?? (res.status >= 500 ? 'upstream' : 'invalid');
  return new DomainError(kind, message, Number.isFinite(retry) && retry > 0 ? { retryAfterS: retry } : undefined);
}

/**
 * `scout mcp` with SCOUT_URL: each tool calls that Scout's HTTP API with the key, so the
 * server's own authentication, rate limit, budget and sponsored labelling apply unchanged.
 */
export function httpBackend(o: HttpBackendOptions): ToolBackend {
  const doFetch = o.fetch ?? fetch;
  const timeoutMs = o.timeoutMs ?? 60_000;
  const post = async <T>(path: string, body: unknown, cancelled?: AbortSignal, waitMs = timeoutMs): Promise<T> => {
    const url = `${o.baseUrl}${path}`;
    let res: Response;
    try {
      res = await doFetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${o.apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify(body),
        // A cancelled call closes its connection, which stops the fetch on the server too.
        signal:
          cancelled === undefined
            ? AbortSignal.timeout(waitMs)
            : AbortSignal.any([AbortSignal.timeout(waitMs), cancelled]),
      });
    } catch (e) {
      if (cancelled?.aborted === true) throw new DomainError('timeout', 'the tool call was cancelled', { cause: e });
      const reason =
        e instanceof Error && e.name === 'TimeoutError'
          ? `no answer within ${waitMs / 1000} s`
          : String((e as Error).cause ?? e);
      throw new DomainError('upstream', `could not reach Scout at ${o.baseUrl} (SCOUT_URL): ${reason}`, { cause: e });
    }
    if (!res.ok) throw await failure(res, `Scout at ${o.baseUrl}`);
    return (await res.json()) as T;
  };
  return {
    // The server charges each /v1 request it gets (a tool that reads several pages or runs
    // several queries sends one request for each); a call that goes no further (an unknown
    // tool, invalid arguments) costs it nothing, so there is nothing to charge here.
    admit: async () => undefined,
    search: (req) => post('/v1/search', req),
    fetch: (req, _caller, signal) => post('/v1/fetch', req, signal),
    // The server charges the map's further fetches itself, to the same key.
    map: (req, _caller, signal) => post('/v1/map', req, signal),
    // A crawl may be given longer than the usual wait (timeout_ms up to 120 s): wait for its answer.
    crawl: (req, _caller, signal) =>
      post('/v1/crawl', req, signal, Math.max(timeoutMs, (req.timeout_ms ?? CRAWL_LIMITS.timeoutMs.default) + 10_000)),
  };
}
