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
  signal: AbortSignal;
  dispatcher?: Dispatcher | undefined;
  /** Values (API keys) removed from the logged upstream error text. */
  secrets?: readonly string[];
  /** Largest accepted response body; default 4 MiB. */
  maxBytes?: number;
  statusHints?: Readonly<Record<number, StatusHint>>;
}

const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
const ERROR_BODY_BYTES = 16 * 1024;
/** How Scout names itself to upstream APIs. */
export const USER_AGENT = 'Scout/0.1 (self-hosted search gateway)';

/**
 * One JSON exchange with an upstream API. Every failure becomes a typed ProviderError whose
 * message is safe for the API caller (status or error code only); the upstream's own error
 * text goes to `detail`, for logs, with the secrets removed. Timeouts are the caller's job
 * (the registry aborts `signal`); undici's request() does not follow redirects, so a 3xx is
 * a failure rather than a silent hop to another host.
 */
export async function requestJson(req: JsonRequest): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': USER_AGENT, ...req.headers };
  let payload: string | undefined;
  if (req.body !== undefined) {
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
  if (res.statusCode < 200 || res.statusCode >= 300) {
    const text = await readText(res, ERROR_BODY_BYTES, req, true).catch(() => '');
    throw statusError(req, res.statusCode, text);
  }
  const text = await readText(res, req.maxBytes ?? DEFAULT_MAX_BYTES, req, false);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new ProviderError(req.provider, 'malformed', 'malformed response (not JSON)', {
      cause: e,
      status: res.statusCode,
      detail: redact(text.slice(0, 200), req.secrets),
    });
  }
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
  // Fast path: a declared length within the cap is read in one go (undici enforces it).
  if (Number.isFinite(declared) && declared <= max) {
    try {
      return await res.body.text();
    } catch (e) {
      throw transportError(req, e);
    }
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
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
    failure === 'auth' ? 'API key refused' : status >= 300 && status < 400 ? 'redirects are not followed' : undefined;
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
