import { Agent } from 'undici';
import { DomainError } from '../domain/errors.ts';
import type { UrlGuard } from './url-guard.ts';
import type { ByteAccount } from './byte-budget.ts';
import type { HostGate } from './host-gate.ts';
import { parseContentEncoding, readBody } from './decompress.ts';
import { toOriginError } from './origin-errors.ts';
import { createRedirectTrail, isRedirectStatus, redirectTarget } from './redirects.ts';
import { statusError } from './status-error.ts';

/**
 * The safe HTTP transport of /v1/fetch: GET through one dedicated undici Agent whose connect
 * `lookup` is the URL guard's (every address checked, the checked address is the one used:
 * no second lookup for rebinding to slip into); IP literals are checked by `guard.checkUrl`
 * on every hop because net never calls `lookup` for them. The Agent is built here rather than
 * taken from undici's global dispatcher, so proxy environment variables (HTTP_PROXY, …) never
 * apply: a proxy would hide the real destination. Redirects are followed by hand.
 * Time is bounded by the caller's `signal` (one deadline for the whole operation).
 */

export interface HttpFetchOptions {
  guard: UrlGuard;
  /** Bytes read off the wire at most (default 10 MB). */
  maxWireBytes?: number;
  /** Bytes after content decoding at most (default 20 MB). */
  maxDecodedBytes?: number;
  /** Redirect hops followed at most (default 10). */
  maxRedirects?: number;
  userAgent?: string;
  /**
   * undici's headers/body timeouts (default 30 s). The caller's deadline is the real limit;
   * these only end bodies left draining after a hop. Set it to the deadline, never below.
   */
  stallTimeoutMs?: number;
  /** Trusted CA certificates, replacing Node's default roots (tests; a private CA). */
  ca?: string | Buffer;
  /**
   * Checked when the final response's headers arrive: an error here is thrown before any of
   * the body is read (a video is refused without downloading it).
   */
  refuseType?: (contentType: string | null) => DomainError | undefined;
  /**
   * Politeness across fetches (src/fetch/host-gate.ts): each hop waits, within the caller's
   * deadline, until its host has a free slot, and holds it until its response is read.
   */
  hostGate?: HostGate;
  /**
   * The byte account of the fetch in progress (src/fetch/byte-scope.ts), if any: the body's
   * decoded bytes are taken from it, and the body is cut where it grants no more.
   */
  byteAccount?: () => ByteAccount | undefined;
  /**
   * The redirect check of the fetch in progress (a site walk's, src/site/fetch-capture.ts), if
   * any: shown each redirect target before it is followed (and before the URL guard sees it),
   * it throws to refuse the hop.
   */
  redirectCheck?: () => ((next: URL) => void) | undefined;
}

export interface HttpResponse {
  /** URL of the response, after redirects. */
  url: string;
  status: number;
  /** Content-Type header value, parameters included, or null. */
  contentType: string | null;
  /** Decoded body, possibly cut at a byte cap. */
  body: Uint8Array;
  /** True when a byte cap cut the body. */
  truncated: boolean;
}

export interface HttpFetcher {
  /** GETs `url`; throws DomainError (403 refused, 400 bad URL, 502 origin failure, 504 when `signal` aborts). */
  fetch(url: URL, signal: AbortSignal): Promise<HttpResponse>;
  close(): Promise<void>;
}

export const DEFAULT_LIMITS = {
  maxWireBytes: 10 * 1024 * 1024,
  maxDecodedBytes: 20 * 1024 * 1024,
  maxRedirects: 10,
} as const;
const DEFAULT_USER_AGENT = 'Mozilla/5.0 (compatible; ScoutFetch/0.1)';
const ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,application/json;q=0.8,application/pdf;q=0.8,*/*;q=0.5';
const DEFAULT_STALL_MS = 30_000;
const DRAIN_LIMIT = 64 * 1024;

const noGate = (): void => {};

const first = (v: string | string[] | undefined): string | null => (Array.isArray(v) ? (v[0] ?? null) : (v ?? null));

/** The error to throw once `signal` has aborted: its reason when that is a DomainError. */
export const abortError = (signal: AbortSignal): DomainError =>
  signal.reason instanceof DomainError ? signal.reason : new DomainError('timeout', 'fetching the page took too long');

export function createHttpFetcher(options: HttpFetchOptions): HttpFetcher {
  const { guard } = options;
  const limits = {
    maxWireBytes: options.maxWireBytes ?? DEFAULT_LIMITS.maxWireBytes,
    maxDecodedBytes: options.maxDecodedBytes ?? DEFAULT_LIMITS.maxDecodedBytes,
  };
  const maxRedirects = options.maxRedirects ?? DEFAULT_LIMITS.maxRedirects;
  const headers = {
    'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
    accept: ACCEPT,
    'accept-encoding': 'gzip, deflate, br',
    'accept-language': 'en;q=0.9, *;q=0.5',
  };
  const agent = new Agent({
    // Spread into net.connect/tls.connect: resolution happens inside connect, through the guard.
    connect: { lookup: guard.lookup, autoSelectFamily: true, ...(options.ca === undefined ? {} : { ca: options.ca }) },
    headersTimeout: options.stallTimeoutMs ?? DEFAULT_STALL_MS,
    bodyTimeout: options.stallTimeoutMs ?? DEFAULT_STALL_MS,
  });

  const send = (url: URL, signal: AbortSignal) =>
    agent.request({ origin: url.origin, path: `${url.pathname}${url.search}`, method: 'GET', headers, signal });

  /** `at.url` tracks the hop in flight, so errors name the host that failed. */
  async function fetchFollowing(at: { url: URL }, signal: AbortSignal): Promise<HttpResponse> {
    const trail = createRedirectTrail(at.url, maxRedirects);
    for (let hop = 0; ; hop += 1) {
      const url = at.url;
      guard.checkUrl(url, hop === 0 ? 'caller' : 'redirect');
      // Held from the request to the end of this hop's response, whatever ends it.
      const leave = options.hostGate === undefined ? noGate : await options.hostGate.enter(url.hostname, signal);
      try {
        const res = await send(url, signal);
        const status = res.statusCode;
        if (status >= 300) {
          // A 403, 429 or 503 is often a bot challenge or a WAF block page: its headers or a small body prefix name it.
          if (!isRedirectStatus(status)) throw await statusError(status, res.headers, res.body);
          // Not awaited: a small body is drained for keep-alive in the background, a big one cut.
          res.body.dump({ limit: DRAIN_LIMIT }).catch(() => {});
          const next = redirectTarget(url, res.headers.location, status);
          trail.follow(next);
          options.redirectCheck?.()?.(next);
          at.url = next;
          continue;
        }
        const refusal = options.refuseType?.(first(res.headers['content-type']));
        if (refusal) {
          // undici's body emits an error when destroyed unread: listen, or it is uncaught.
          res.body.on('error', () => {}).destroy();
          throw refusal;
        }
        const read = await readBody(res.body, parseContentEncodingSafely(res), limits, options.byteAccount?.());
        return { url: url.href, status, contentType: first(res.headers['content-type']), ...read };
      } finally {
        leave();
      }
    }
  }

  const parseContentEncodingSafely = (res: {
    headers: Record<string, string | string[] | undefined>;
    body: NodeJS.ReadableStream & { destroy(): unknown };
  }) => {
    try {
      return parseContentEncoding(res.headers['content-encoding']);
    } catch (err) {
      // undici's body emits an error when destroyed unread: listen, or it is an uncaught exception.
      res.body.on('error', () => {}).destroy();
      throw err;
    }
  };

  return {
    async fetch(url, signal) {
      const at = { url };
      try {
        return await fetchFollowing(at, signal);
      } catch (err) {
        if (signal.aborted) throw abortError(signal);
        throw toOriginError(err, at.url.host);
      }
    },
    close: () => agent.close(),
  };
}
