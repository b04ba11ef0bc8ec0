import { afterEach, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/schemas/error.ts';
import { addressGroup } from '../../src/http/connection-limits.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { hasResponses, openRaw, parseResponse, within, type RawSocket } from './raw-socket.ts';

let t: TestScout | undefined;
const open: RawSocket[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) c.socket.destroy();
  await t?.close();
  t = undefined;
});

/** A connection that has been served once and stays open (keep-alive), so the server counts it. */
async function heldOpen(baseUrl: string, localAddress: string): Promise<RawSocket> {
  const c = await openRaw(baseUrl, { localAddress });
  open.push(c);
  c.socket.write('GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n');
  await c.waitFor(hasResponses(1), 2000);
  expect(parseResponse(c.received()).status).toBe(200);
  return c;
}

/** A connection the server refuses: its 503 arrives without a request, then it is closed. */
async function refused(baseUrl: string, localAddress: string) {
  const c = await openRaw(baseUrl, { localAddress });
  open.push(c);
  await within(c.closed, 1500, 'close of a refused connection');
  const res = parseResponse(c.received());
  expect(res.status).toBe(503);
  expectShape(ErrorBody, res.body);
  expect(res.body.error.status).toBe(503);
  expect(res.headers['retry-after']).toBe('1');
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.headers.connection).toBe('close');
  return res.body.error.message as string;
}

const healthz = async (baseUrl: string) => (await fetch(`${baseUrl}/healthz`)).status;

describe('per-address connection cap (SCOUT_HTTP_MAX_CONNECTIONS_PER_IP)', () => {
  it('refuses one address past its cap with a 503, serves other addresses, and admits it again once a connection closes', async () => {
    t = await startTestScout({ SCOUT_HTTP_MAX_CONNECTIONS_PER_IP: '5', SCOUT_HTTP_KEEP_ALIVE_TIMEOUT_MS: '30000' });
    const held: RawSocket[] = [];
    for (let i = 0; i < 5; i++) held.push(await heldOpen(t.baseUrl, '127.0.0.3'));

    const message = await refused(t.baseUrl, '127.0.0.3');
    expect(message).toBe('too many open connections from your address (at most 5); reuse connections (keep-alive) or open fewer at once, then retry');
    // Other addresses are not affected.
    expect(await healthz(t.baseUrl)).toBe(200);
    await heldOpen(t.baseUrl, '127.0.0.4');

    held[0]!.socket.destroy();
    await held[0]!.closed;
    await expect.poll(async () => {
      const c = await openRaw(t!.baseUrl, { localAddress: '127.0.0.3' });
      open.push(c);
      c.socket.write('GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
      await within(c.closed, 1500, 'answer');
      return parseResponse(c.received()).status;
    }, { timeout: 2000 }).toBe(200);
    expect(t.logs.some((l) => l.msg === 'connections refused over the connection caps (counts since the previous such line)' && l.latest_address === '127.0.0.3')).toBe(true);
  });

  it('0 turns the per-address cap off', async () => {
    t = await startTestScout({ SCOUT_HTTP_MAX_CONNECTIONS_PER_IP: '0', SCOUT_HTTP_KEEP_ALIVE_TIMEOUT_MS: '30000' });
    for (let i = 0; i < 70; i++) await heldOpen(t.baseUrl, '127.0.0.3');
    expect(await healthz(t.baseUrl)).toBe(200);
  });
});

describe('server-wide connection cap (SCOUT_HTTP_MAX_CONNECTIONS)', () => {
  it('refuses every address past the cap with a 503 and serves again once a connection closes', async () => {
    t = await startTestScout({ SCOUT_HTTP_MAX_CONNECTIONS: '4', SCOUT_HTTP_MAX_CONNECTIONS_PER_IP: '0', SCOUT_HTTP_KEEP_ALIVE_TIMEOUT_MS: '30000' });
    const held = [
      await heldOpen(t.baseUrl, '127.0.0.3'),
      await heldOpen(t.baseUrl, '127.0.0.4'),
      await heldOpen(t.baseUrl, '127.0.0.5'),
      await heldOpen(t.baseUrl, '127.0.0.6'),
    ];
    expect(await refused(t.baseUrl, '127.0.0.7')).toBe('the server has too many open connections (at most 4); retry shortly');
    expect(await refused(t.baseUrl, '127.0.0.1')).toMatch(/^the server has too many open connections/);

    held[0]!.socket.destroy();
    await held[0]!.closed;
    await expect.poll(() => healthz(t!.baseUrl).catch(() => 0), { timeout: 2000 }).toBe(200);
  });
});

describe('addressGroup', () => {
  it('counts IPv4 by address, IPv4-mapped IPv6 as IPv4, and IPv6 by /64', () => {
    expect(addressGroup('127.0.0.3')).toBe('127.0.0.3');
    expect(addressGroup('::ffff:127.0.0.3')).toBe('127.0.0.3');
    expect(addressGroup('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8:1:2:bbbb::9')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressGroup(undefined)).toBe('');
  });
});
