import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { request, type Dispatcher } from 'undici';
import { ProviderError, type ProviderFailureKind } from './provider.ts';

/** How one upstream status is reported (for example SearXNG's 403 when JSON is disabled). */
export interface StatusHint {
  failure?: ProviderFailureKind;
  /** Appended to the caller-safe message: `HTTP 403 (<hint>)`. */
  hint?: string;
}

export interface JsonRequest {
  /** Provider name, for the errors. */
  provider: string;
  /** Full URL, query string included. Never put a secret in it: use a header. */
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** JSON-encoded as the request body when present. */
  body?: unknown;
  /** Sent as an HTML form (application/x-www-form-urlencoded) when present, instead of `body`. */
  form?: Record<string, string>;
  signal: AbortSignal;
  dispatcher?: Dispatcher | undefined;
  /** The User-Agent sent (the operator's, with their contact: docs/providers.md); default USER_AGENT. */
  userAgent?: string | undefined;
  /** Values (API keys) removed from the logged upstream error text. */
  secrets?: readonly string[];
  /** Largest accepted response body; default 4 MiB. */
  maxBytes?: number;
  /**
   * How given statuses are reported. A hint with a `failure` applies to any status, 2xx
   * included: DuckDuckGo answers its bot check with a 202, which is a block, not a page.
   */
  statusHints?: Readonly<Record<number, StatusHint>>;
}

/** An upstream's answer, its body read (decompressed) within the size cap. */
export interface UpstreamText {
  status: number;
  contentType: string;
  text: string;
}

const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
const ERROR_BODY_BYTES = 16 * 1024;
/** How Scout names itself upstream when the operator gave no contact (scout-user-agent.ts). */
export const USER_AGENT = 'Scout/0.1 (self-hosted search gateway)';

/**
 * One exchange with an upstream (an API or a result page). Every failure becomes a typed
 * ProviderError whose message is safe for the API caller (status or error code only); the
 * upstream's own error text goes to `detail`, for logs, with the secrets removed. Timeouts
 * are the caller's job (the registry aborts `signal`); undici's request() does not follow
 * redirects, so a 3xx is a failure rather than a silent hop to another host. Compressed
 * bodies (gzip, deflate, br) are decompressed: Stack Exchange's API always compresses.
 */
export async function requestUpstream(req: JsonRequest, accept: string): Promise<UpstreamText> {
  const headers: Record<string, string> = {
    accept,
    'accept-encoding': 'gzip, deflate, br',
    'user-agent': req.userAgent ?? USER_AGENT,
    ...req.headers,
  };
  let payload: string | undefined;
  if (req.form !== undefined) {
    payload = new URLSearchParams(req.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (req.body !== undefined) {
    payload = JSON.stringify(req.body);
    headers['content-type'] = 'application/json';
  }
  let res: Dispatcher.ResponseData;
  try {
    res = await request(req.url, {
      method: req.method ?? 'GET',
      headers,
      signal: req.signal,
      ...(payload === undefined ? {} : { body: payload }),
      ...(req.dispatcher === undefined ? {} : { dispatcher: req.dispatcher }),
    });
  } catch (e) {
    throw transportError(req, e);
  }
  if (res.statusCode < 200 || res.statusCode >= 300 || req.statusHints?.[res.statusCode]?.failure) {
    const text = await readText(res, ERROR_BODY_BYTES, req, true).catch(() => '');
    throw statusError(req, res.statusCode, text);
  }
  const text = await readText(res, req.maxBytes ?? DEFAULT_MAX_BYTES, req, false);
  const type = res.headers['content-type'];
  return { status: res.statusCode, contentType: typeof type === 'string' ? type : '', text };
}

/** One JSON exchange with an upstream API (see requestUpstream). */
export async function requestJson(req: JsonRequest): Promise<unknown> {
  const { status, text } = await requestUpstream(req, 'application/json');
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new ProviderError(req.provider, 'malformed', 'malformed response (not JSON)', {
      cause: e,
      status,
      detail: redact(text.slice(0, 200), req.secrets),
    });
  }
}

/** One result page of an engine that answers HTML (see requestUpstream). */
export async function requestPage(req: JsonRequest): Promise<UpstreamText> {
  return requestUpstream(req, 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8');
}

/** The body as bytes arrive, decompressed when the upstream says it compressed it. */
function bodyStream(res: Dispatcher.ResponseData, req: ReadTarget): AsyncIterable<Buffer> {
  const raw = res.headers['content-encoding'];
  const coding = (Array.isArray(raw) ? raw.join(',') : (raw ?? '')).trim().toLowerCase();
  if (coding === '' || coding === 'identity') return res.body as AsyncIterable<Buffer>;
  const decoder =
    coding === 'gzip' || coding === 'x-gzip'
      ? createGunzip()
      : coding === 'deflate'
        ? createInflate()
        : coding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (!decoder)
    throw new ProviderError(req.provider, 'malformed', `malformed response (unsupported content-encoding ${coding})`);
  return Readable.from(res.body).pipe(decoder);
}

/** Who a read is for: the provider named in its errors, and the call's abort signal. */
export interface ReadTarget {
  provider: string;
  signal: AbortSignal;
}

/**
 * Reads the body up to `max` bytes; past it, `truncate` keeps the start (error answers) or
 * fails as malformed. Transport failures become the provider's network or timeout errors.
 */
export async function readText(
  res: Dispatcher.ResponseData,
  max: number,
  req: ReadTarget,
  truncate: boolean,
): Promise<string> {
  const declared = Number(res.headers['content-length']);
  const encoded = res.headers['content-encoding'] !== undefined && res.headers['content-encoding'] !== 'identity';
  // Fast path: a declared length within the cap is read in one go (undici enforces it); a
  // compressed body is measured after decompression (the cap is on what Scout holds).
  if (!encoded && Number.isFinite(declared) && declared <= max) {
    try {
      return await res.body.text();
    } catch (e) {
      throw transportError(req, e);
    }
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of bodyStream(res, req)) {
      const buf = chunk;
      size += buf.length;
      if (size > max) {
        res.body.destroy();
        if (truncate) break;
        throw new ProviderError(req.provider, 'malformed', `malformed response (larger than ${max} bytes)`);
      }
      chunks.push(buf);
    }
  } catch (e) {
    if (e instanceof ProviderError) throw e;
    throw transportError(req, e);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A failed connection or read as the provider's error: a timeout when the call was aborted. */
export function transportError(req: ReadTarget, e: unknown): ProviderError {
  if (req.signal.aborted) return new ProviderError(req.provider, 'timeout', 'request aborted', { cause: e });
  const code = (e as { code?: unknown }).code;
  const label = typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? code : 'connection failed';
  return new ProviderError(req.provider, 'network', `network error (${label})`, { cause: e });
}

function statusError(req: JsonRequest, status: number, body: string): ProviderError {
  const hint = req.statusHints?.[status];
  const failure: ProviderFailureKind =
    hint?.failure ?? (status === 401 || status === 403 ? 'auth' : status === 429 ? 'rate_limited' : 'http');
  const defaultHint =
    failure === 'auth'
      ? 'API key refused'
      : failure === 'blocked'
        ? 'the engine refused automated queries'
        : status >= 300 && status < 400
          ? 'redirects are not followed'
          : undefined;
  const note = hint?.hint ?? defaultHint;
  const detail = redact(body.replace(/\s+/g, ' ').trim().slice(0, 300), req.secrets);
  return new ProviderError(req.provider, failure, note ? `HTTP ${status} (${note})` : `HTTP ${status}`, {
    status,
    ...(detail ? { detail } : {}),
  });
}

/** Removes every secret from a text meant for logs. */
export function redact(text: string, secrets: readonly string[] | undefined): string {
  let out = text;
  for (const s of secrets ?? []) if (s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}
