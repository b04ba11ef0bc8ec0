import { request, type Dispatcher } from 'undici';
import { asRecord, text } from '../adapter-kit.ts';
import { readText, redact, transportError, USER_AGENT } from '../http-json.ts';
import { ProviderError, type ProviderFailureKind } from '../provider.ts';
import type { OpenSearchConnection } from './connection.ts';
import { NodePool } from './node-pool.ts';

/** Provider name, in errors, logs and `x-scout-provider`. */
export const OPENSEARCH = 'opensearch';

export interface ClusterRequest {
  method: 'GET' | 'POST' | 'PUT' | 'HEAD';
  /** Path below the node's base URL, e.g. `/scout-pages/_search`. */
  path: string;
  /** Sent as application/json. */
  json?: unknown;
  /** A _bulk body, sent as application/x-ndjson: one JSON value a line, ending with a newline. */
  ndjson?: string;
  signal: AbortSignal;
  /** Largest accepted answer; default 32 MiB (20 advanced hits of 200 000-character pages fit). */
  maxBytes?: number;
}

/** Any answer with a status: errors are the caller's to read (a _bulk 429 is retried, a search 429 is not). */
export interface ClusterResponse {
  status: number;
  /** The parsed JSON body; undefined when empty or not JSON (the security plugin's 401 is plain text). */
  body: unknown;
  text: string;
}

export interface ClusterClientOptions {
  /** undici dispatcher (connection pool); tests pass one. */
  dispatcher?: Dispatcher;
  /** Cool-down of a node that failed (NodePool); default 30 s. */
  downMs?: number;
}

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Statuses that mean "this node cannot serve right now" (a proxy in front of a node that is
 * down, a node without a cluster manager): another node may. Any other status is the
 * cluster's answer to the request and would be the same from every node.
 */
const NODE_UNAVAILABLE = new Set([502, 503, 504]);

/**
 * HTTP to an OpenSearch or Elasticsearch 8 cluster through any of its nodes (the two agree
 * on every call Scout makes: _search, _bulk, _index_template, index creation, _refresh,
 * _count). A call goes to the next node in turn (NodePool) and, when that node refuses the
 * connection, resets it or answers 502/503/504, to the next one, within the caller's signal.
 * Transport failures become ProviderErrors ('network', 'timeout'); statuses are returned.
 * undici's request() does not follow redirects, so a 3xx is an answer, not a hop elsewhere.
 */
export class ClusterClient {
  readonly index: string;
  readonly #conn: OpenSearchConnection;
  readonly #pool: NodePool;
  readonly #dispatcher: Dispatcher | undefined;

  constructor(conn: OpenSearchConnection, options: ClusterClientOptions = {}) {
    this.#conn = conn;
    this.index = conn.index;
    this.#pool = new NodePool(conn.nodes, options.downMs === undefined ? {} : { downMs: options.downMs });
    this.#dispatcher = options.dispatcher;
  }

  /** Credentials and other values that must never reach a log line. */
  get secrets(): readonly string[] {
    return this.#conn.secrets;
  }

  async request(req: ClusterRequest): Promise<ClusterResponse> {
    let lastError: ProviderError | undefined;
    let lastAnswer: ClusterResponse | undefined;
    for (const node of this.#pool.order()) {
      let res: ClusterResponse;
      try {
        res = await this.#exchange(node, req);
      } catch (e) {
        if (!(e instanceof ProviderError) || e.failure !== 'network') throw e;
        this.#pool.down(node);
        lastError = e;
        continue;
      }
      if (NODE_UNAVAILABLE.has(res.status)) {
        this.#pool.down(node);
        lastAnswer = res;
        continue;
      }
      this.#pool.up(node);
      return res;
    }
    if (lastAnswer) return lastAnswer;
    throw lastError ?? new ProviderError(OPENSEARCH, 'network', 'network error (no node answered)');
  }

  async #exchange(node: string, req: ClusterRequest): Promise<ClusterResponse> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': USER_AGENT,
      ...this.#conn.headers,
    };
    let body: string | undefined;
    if (req.ndjson !== undefined) {
      body = req.ndjson;
      headers['content-type'] = 'application/x-ndjson';
    } else if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    }
    let res: Dispatcher.ResponseData;
    try {
      res = await request(`${node}${req.path}`, {
        method: req.method,
        headers,
        signal: req.signal,
        ...(body === undefined ? {} : { body }),
        ...(this.#dispatcher === undefined ? {} : { dispatcher: this.#dispatcher }),
      });
    } catch (e) {
      throw transportError({ provider: OPENSEARCH, signal: req.signal }, e);
    }
    const raw = await readText(
      res,
      req.maxBytes ?? DEFAULT_MAX_BYTES,
      { provider: OPENSEARCH, signal: req.signal },
      false,
    );
    let parsed: unknown;
    if (raw.trim() !== '') {
      try {
        parsed = JSON.parse(raw);
      } catch {
        parsed = undefined;
      }
    }
    return { status: res.statusCode, body: parsed, text: raw };
  }
}

/** An OpenSearch error as Scout reports it: the machine-readable type and the reason text. */
export interface ClusterErrorInfo {
  /** `index_not_found_exception`, `rejected_execution_exception`…; absent when the body is not an OpenSearch error. */
  type?: string;
  /** The reason, with its first cause, one line, at most ~300 characters, secrets removed. */
  reason: string;
}

/** Error types are identifiers; anything else is not repeated in a caller-facing message. */
const SAFE_TYPE = /^[a-z][a-z0-9_]{0,79}$/;

/**
 * The documented error shapes: `{"error": {"root_cause": […], "type", "reason", "caused_by"?},
 * "status"}` (both engines), an older `{"error": "text", "status"}`, or plain text (the
 * OpenSearch security plugin's `Unauthorized`).
 */
export function clusterError(body: unknown, rawText: string, secrets: readonly string[]): ClusterErrorInfo {
  const error = asRecord(body)?.error;
  return errorInfo(error, rawText, secrets);
}

/** An `error` value: a whole answer's, or a _bulk item's (same object shape, no root_cause needed). */
export function errorInfo(error: unknown, fallback: string, secrets: readonly string[]): ClusterErrorInfo {
  const e = asRecord(error);
  let type: string | undefined;
  let reason: string;
  if (e) {
    type = text(e.type);
    reason = text(e.reason) ?? '';
    const cause = asRecord(e.caused_by);
    const causeType = text(cause?.type);
    if (cause && causeType)
      reason += ` (caused by ${causeType}${text(cause.reason) ? `: ${String(cause.reason)}` : ''})`;
  } else {
    reason = typeof error === 'string' ? error : fallback;
  }
  const oneLine = redact(reason.replace(/\s+/g, ' ').trim(), secrets);
  return {
    ...(type !== undefined && SAFE_TYPE.test(type) ? { type } : {}),
    reason: oneLine.length > 300 ? `${oneLine.slice(0, 299)}…` : oneLine,
  };
}

/** `type: reason` (or either alone), for operators. */
export const describeError = (e: ClusterErrorInfo): string =>
  e.type && e.reason ? `${e.type}: ${e.reason}` : (e.type ?? (e.reason || 'no reason given'));

/**
 * A non-2xx answer as a ProviderError, like the other adapters' (src/providers/http-json.ts):
 * 401/403 are `auth`, 429 `rate_limited`, the rest `http`. The caller-safe message carries the
 * status and the error type only (an identifier such as `index_not_found_exception`); the
 * reason goes to `detail`, for logs.
 */
export function statusError(res: ClusterResponse, secrets: readonly string[]): ProviderError {
  const info = clusterError(res.body, res.text, secrets);
  const failure: ProviderFailureKind =
    res.status === 401 || res.status === 403 ? 'auth' : res.status === 429 ? 'rate_limited' : 'http';
  const hint =
    info.type ??
    (failure === 'auth'
      ? 'credentials refused'
      : res.status >= 300 && res.status < 400
        ? 'redirects are not followed'
        : undefined);
  const detail = describeError(info);
  return new ProviderError(OPENSEARCH, failure, hint ? `HTTP ${res.status} (${hint})` : `HTTP ${res.status}`, {
    status: res.status,
    ...(detail ? { detail } : {}),
  });
}

export const ok = (res: ClusterResponse): boolean => res.status >= 200 && res.status < 300;

/** A 2xx answer whose body is not JSON. */
export const malformedAnswer = (res: ClusterResponse, secrets: readonly string[]): ProviderError =>
  new ProviderError(OPENSEARCH, 'malformed', 'malformed response (not JSON)', {
    status: res.status,
    detail: redact(res.text.slice(0, 200), secrets),
  });

/** A failure as operators read it (CLI output): the caller-safe message and the cluster's own reason. */
export const explain = (e: unknown): string =>
  e instanceof ProviderError && e.detail ? `${e.message}: ${e.detail}` : e instanceof Error ? e.message : String(e);
