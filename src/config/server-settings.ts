import { cidrList, int, optionalUrl, type Parser } from './parsers.ts';
import { s } from './setting.ts';

/**
 * Limits of the HTTP server itself (docs/operations.md, "HTTP server limits"), spread into
 * the main settings table by settings.ts. None can be turned off except the per-address
 * cap: without them a few thousand slow sockets hold every file descriptor.
 */
/** A TCP port, or unset. */
const optionalPort: Parser<number | undefined> = (raw) => (raw.trim() === '' ? undefined : int(1, 65535)(raw));

export const serverSettings = {
  httpHeadersTimeoutMs: s(
    'SCOUT_HTTP_HEADERS_TIMEOUT_MS',
    int(100, 600_000),
    '10000',
    'Time for a request line and headers to arrive, from the first byte (or from the connection for its first request), in milliseconds; past it the answer is 408 and the connection is closed. At most SCOUT_HTTP_REQUEST_TIMEOUT_MS.',
  ),
  httpRequestTimeoutMs: s(
    'SCOUT_HTTP_REQUEST_TIMEOUT_MS',
    int(100, 3_600_000),
    '30000',
    'Time for a whole request, headers and body, to arrive, from its first byte, in milliseconds; past it the answer is 408 and the connection is closed. Time spent answering is not counted.',
  ),
  httpKeepAliveTimeoutMs: s(
    'SCOUT_HTTP_KEEP_ALIVE_TIMEOUT_MS',
    int(100, 600_000),
    '5000',
    "How long an idle keep-alive connection waits for its next request, in milliseconds. Behind a proxy, set it above the proxy's own idle timeout.",
  ),
  httpMaxRequestsPerSocket: s(
    'SCOUT_HTTP_MAX_REQUESTS_PER_SOCKET',
    int(0, 1_000_000),
    '1000',
    'Requests served on one keep-alive connection before Scout closes it (the last answer says Connection: close); 0 means no limit.',
  ),
  httpMaxConnections: s(
    'SCOUT_HTTP_MAX_CONNECTIONS',
    int(1, 1_000_000),
    '1024',
    'Open client connections at once; a connection past it is answered 503 and closed before any of it is read.',
  ),
  httpMaxConnectionsPerIp: s(
    'SCOUT_HTTP_MAX_CONNECTIONS_PER_IP',
    int(0, 1_000_000),
    '64',
    "Open connections at once from one client address (IPv6: one /56); past it 503 and closed before any of it is read. Behind a reverse proxy every client has the proxy's address: raise it or set 0 (no per-address cap).",
  ),
  trustedProxies: s(
    'SCOUT_TRUSTED_PROXIES',
    cidrList,
    '',
    "Comma-separated CIDRs of reverse proxies whose X-Forwarded-For Scout believes: a request from one of them is counted as the client the header names (the anonymous tier's per-address limit). Empty: no proxy is trusted and the header is ignored. Connection caps always count the socket's address.",
  ),
  httpUnauthenticatedConnectionMs: s(
    'SCOUT_HTTP_UNAUTHENTICATED_CONNECTION_MS',
    int(1_000, 86_400_000),
    '30000',
    'Life of a connection on which no request has carried a valid API key, from its opening, in milliseconds; the first answer past it says Connection: close. Keyless keep-alive connections (health checks, floods) cannot hold slots for long.',
  ),
  httpShutdownDrainMs: s(
    'SCOUT_HTTP_SHUTDOWN_DRAIN_MS',
    int(0, 600_000),
    '10000',
    'At SIGINT/SIGTERM, how long requests already in flight may go on, in milliseconds; connections without one (idle, or still sending their headers) are closed at once, and what is open past it is cut. Then the budget lease goes back, queued ad events are written and the process exits.',
  ),
  metricsPort: s(
    'SCOUT_METRICS_PORT',
    optionalPort,
    '',
    'Serves GET /metrics (Prometheus) on 127.0.0.1 at this port, without a token, for a scraper on the same host. Unset: /metrics is on the API port only, behind SCOUT_ADMIN_TOKEN (off without it).',
  ),
  tracingOtlpUrl: s(
    'SCOUT_TRACING_OTLP_URL',
    optionalUrl,
    '',
    'OpenTelemetry: the OTLP/HTTP traces endpoint (e.g. http://otel-collector:4318/v1/traces). Set: a server span per request (with scout.request_id) and a client span per outbound HTTP call. Unset: no tracing, and its code is not loaded.',
  ),
} as const;
