import { DomainError } from '../domain/errors.ts';

/**
 * Turns a transport failure (node:net, node:tls, undici) into a DomainError whose message
 * names the cause, so an agent can tell a dead host from a refused port or a bad certificate.
 * DomainErrors (refusals from the URL guard's lookup, caps) pass through unchanged.
 */

type ErrnoLike = Error & { code?: string; address?: string; port?: number; errors?: unknown[] };

const describeTls = (code: string): string => {
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'its certificate does not match the host name';
  if (code === 'CERT_HAS_EXPIRED') return 'its certificate has expired';
  if (code.includes('SELF_SIGNED') || code.startsWith('UNABLE_TO_')) return 'its certificate is not trusted';
  return `the handshake failed (${code})`;
};

const isTlsCode = (code: string): boolean => /CERT|SSL|TLS/.test(code) || code === 'EPROTO';

/** `target` is "host:port" of the URL being fetched, used when the error carries no address. */
export function toOriginError(err: unknown, target: string): DomainError {
  if (err instanceof DomainError) return err;
  // net's happy-eyeballs connect reports every failed attempt in an AggregateError.
  const e = (err instanceof AggregateError && err.errors.length > 0 ? err.errors[0] : err) as ErrnoLike | undefined;
  const code = e?.code ?? '';
  const where =
    e?.address !== undefined && e.port !== undefined
      ? `${e.address.includes(':') ? `[${e.address}]` : e.address}:${e.port}`
      : target;
  const upstream = (message: string): DomainError => new DomainError('upstream', message, { cause: err });
  switch (code) {
    case 'ECONNREFUSED':
      return upstream(`connection refused by ${where}`);
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return upstream(`connection to ${target} was closed by the origin before the response was complete`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return upstream(`could not reach ${where} (no route)`);
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new DomainError('timeout', `connecting to ${target} timed out`, { cause: err });
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return new DomainError('timeout', `${target} stopped answering`, { cause: err });
    case 'UND_ERR_HEADERS_OVERFLOW':
      return upstream(`origin ${target} sent response headers that are too large`);
  }
  if (code.startsWith('HPE_')) return upstream(`origin ${target} sent an invalid HTTP response`);
  if (isTlsCode(code)) return upstream(`TLS connection to ${target} failed: ${describeTls(code)}`);
  return upstream(`fetching from ${target} failed${code === '' ? '' : ` (${code})`}`);
}
