import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.ts';
import { toOriginError } from '../../src/fetch/origin-errors.ts';

const err = (code: string, extra: object = {}) => Object.assign(new Error(code), { code, ...extra });

describe('toOriginError', () => {
  it.each([
    [err('ECONNREFUSED', { address: '203.0.113.5', port: 443 }), 'upstream', 'connection refused by 203.0.113.5:443'],
    [err('ECONNREFUSED', { address: '2001:db8::1', port: 80 }), 'upstream', 'connection refused by [2001:db8::1]:80'],
    [
      new AggregateError([err('ECONNREFUSED', { address: '198.51.100.1', port: 80 })]),
      'upstream',
      'connection refused by 198.51.100.1:80',
    ],
    [
      err('ECONNRESET'),
      'upstream',
      'connection to example.com was closed by the origin before the response was complete',
    ],
    [
      err('EHOSTUNREACH', { address: '198.51.100.1', port: 80 }),
      'upstream',
      'could not reach 198.51.100.1:80 (no route)',
    ],
    [err('UND_ERR_CONNECT_TIMEOUT'), 'timeout', 'connecting to example.com timed out'],
    [err('HPE_INVALID_CONSTANT'), 'upstream', 'origin example.com sent an invalid HTTP response'],
    [err('CERT_HAS_EXPIRED'), 'upstream', 'TLS connection to example.com failed: its certificate has expired'],
    [
      err('ERR_SSL_WRONG_VERSION_NUMBER'),
      'upstream',
      'TLS connection to example.com failed: the handshake failed (ERR_SSL_WRONG_VERSION_NUMBER)',
    ],
    [new Error('mystery'), 'upstream', 'fetching from example.com failed'],
  ])('maps %s', (input, kind, message) => {
    const out = toOriginError(input, 'example.com');
    expect([out.kind, out.message]).toEqual([kind, message]);
  });

  it('passes DomainErrors through', () => {
    const refused = new DomainError('forbidden', 'refused');
    expect(toOriginError(refused, 'x')).toBe(refused);
  });
});
