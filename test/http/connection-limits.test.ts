import { afterEach, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/schemas/error.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { hasResponses, openRaw, parseResponse, parseResponses, within, type RawSocket } from './raw-socket.ts';
import { defined } from '../helpers/defined.ts';

// Waits for what must come (an answer, a refusal's close): far above what it takes, for the
// machine may be busy (issue 24), and below the 30 s keep-alive that would close a held one.
const PATIENCE_MS = 10_000;

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
  await c.waitFor(hasResponses(1), PATIENCE_MS);
  expect(parseResponse(c.received()).status).toBe(200);
  return c;
}

/** A connection the server refuses: its 503 arrives without a request, then it is closed. */
async function refused(baseUrl: string, localAddress: string) {
  const c = await openRaw(baseUrl, { localAddress });
  open.push(c);
  await within(c.closed, PATIENCE_MS, 'close of a refused connection');
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
    expect(message).toBe(
      'too many open connections from your address (at most 5); reuse connections (keep-alive) or open fewer at once, then retry',
    );
    // Other addresses are not affected.
    expect(await healthz(t.baseUrl)).toBe(200);
    await heldOpen(t.baseUrl, '127.0.0.4');

    const first = defined(held[0], 'a first held connection');
    first.socket.destroy();
    await first.closed;
    await expect
      .poll(
        async () => {
          const c = await openRaw(t!.baseUrl, { localAddress: '127.0.0.3' });
          open.push(c);
          c.socket.write('GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
          await within(c.closed, PATIENCE_MS, 'answer');
          return parseResponse(c.received()).status;
        },
        { timeout: PATIENCE_MS },
      )
      .toBe(200);
    expect(
      t.logs.some(
        (l) =>
          l.msg ===
            'connections refused over the connection caps, or reclaimed for a fair share (counts since the previous such line)' &&
          l.latest_address === '127.0.0.3',
      ),
    ).toBe(true);
  });

  it('0 turns the per-address cap off', async () => {
    t = await startTestScout({ SCOUT_HTTP_MAX_CONNECTIONS_PER_IP: '0', SCOUT_HTTP_KEEP_ALIVE_TIMEOUT_MS: '30000' });
    for (let i = 0; i < 70; i++) await heldOpen(t.baseUrl, '127.0.0.3');
    expect(await healthz(t.baseUrl)).toBe(200);
  });
});

describe('server-wide connection cap (SCOUT_HTTP_MAX_CONNECTIONS)', () => {
  it('refuses every address past the cap with a 503 and serves again once a connection closes', async () => {
    t = await startTestScout({
      SCOUT_HTTP_MAX_CONNECTIONS: '4',
      SCOUT_HTTP_MAX_CONNECTIONS_PER_IP: '0',
      SCOUT_HTTP_KEEP_ALIVE_TIMEOUT_MS: '30000',
    });
    const held = [
      await heldOpen(t.baseUrl, '127.0.0.3'),
      await heldOpen(t.baseUrl, '127.0.0.4'),
      await heldOpen(t.baseUrl, '127.0.0.5'),
      await heldOpen(t.baseUrl, '127.0.0.6'),
    ];
    expect(await refused(t.baseUrl, '127.0.0.7')).toBe(
      'the server has too many open connections (at most 4); retry shortly',
    );
    expect(await refused(t.baseUrl, '127.0.0.1')).toMatch(/^the server has too many open connections/);

    const first = defined(held[0], 'a first held connection');
    first.socket.destroy();
    await first.closed;
    await expect.poll(() => healthz(t!.baseUrl).catch(() => 0), { timeout: PATIENCE_MS }).toBe(200);
  });
});

/** Sends GET `path` on `c` and returns the new answer (status, Connection header). */
async function ask(c: RawSocket, headers = '', path = '/healthz') {
  const before = parseResponses(c.received()).length;
  c.socket.write(`GET ${path} HTTP/1.1\r\nHost: a\r\n${headers}\r\n`);
  await c.waitFor(hasResponses(before + 1), PATIENCE_MS);
  return defined(parseResponses(c.received())[before], `response ${before + 1}`);
}

describe('fair share of the connection cap', () => {
  it('admits an address holding none while others hold every slot, by closing an idle connection of the biggest holder', async () => {
    t = await startTestScout({
      SCOUT_HTTP_MAX_CONNECTIONS: '12',
      SCOUT_HTTP_MAX_CONNECTIONS_PER_IP: '64',
      SCOUT_HTTP_KEEP_ALIVE_TIMEOUT_MS: '30000',
    });
    // Three addresses hold all 12 slots, 127.0.0.10 the most (6), all idle keep-alive.
    const hog: RawSocket[] = [];
    for (let i = 0; i < 6; i++) hog.push(await heldOpen(t.baseUrl, '127.0.0.10'));
    for (let i = 0; i < 3; i++) await heldOpen(t.baseUrl, '127.0.0.11');
    for (let i = 0; i < 3; i++) await heldOpen(t.baseUrl, '127.0.0.12');

    // A fourth address: its fair share is 12 / 4 = 3; it gets a slot, several times over.
    for (let i = 0; i < 3; i++) await heldOpen(t.baseUrl, '127.0.0.20');
    // Its share is used up now, and the biggest holders are at their share: refused.
    expect(await refused(t.baseUrl, '127.0.0.20')).toMatch(/^the server has too many open connections/);
    // The slots came from the biggest holder, one of its idle connections each time.
    await expect.poll(() => hog.filter((c) => c.isClosed()).length, { timeout: PATIENCE_MS }).toBe(3);
    // The one that lost them cannot take them back: it is above its share.
    expect(await refused(t.baseUrl, '127.0.0.10')).toMatch(/^the server has too many open connections/);
    expect(
      t.logs.some(
        (l) =>
          typeof l.msg === 'string' &&
          l.msg.startsWith('connections refused over the connection caps, or reclaimed') &&
          (l.reclaimed as number) >= 1,
      ),
    ).toBe(true);
  });

  it('never takes a connection whose request is in flight', async () => {
    t = await startTestScout({
      SCOUT_HTTP_MAX_CONNECTIONS: '2',
      SCOUT_HTTP_MAX_CONNECTIONS_PER_IP: '64',
      SCOUT_HTTP_KEEP_ALIVE_TIMEOUT_MS: '30000',
    });
    const busy: RawSocket[] = [];
    for (let i = 0; i < 2; i++) {
      const c = await openRaw(t.baseUrl, { localAddress: '127.0.0.10' });
      open.push(c);
      // Headers arrived (100 Continue), body not yet: in flight.
      c.socket.write(
        `POST /v1/search HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${t.key}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 20\r\n\r\n`,
      );
      await c.waitFor(/100 Continue/, PATIENCE_MS);
      busy.push(c);
    }
    expect(await refused(t.baseUrl, '127.0.0.20')).toMatch(/^the server has too many open connections/);
    expect(busy.map((c) => c.isClosed())).toEqual([false, false]);
  });
});

describe('life of unauthenticated connections (SCOUT_HTTP_UNAUTHENTICATED_CONNECTION_MS)', () => {
  it('closes a keyless keep-alive connection after its lifetime, however busy, and keeps one a key authenticated', async () => {
    t = await startTestScout({
      SCOUT_HTTP_UNAUTHENTICATED_CONNECTION_MS: '1000',
      SCOUT_HTTP_KEEP_ALIVE_TIMEOUT_MS: '30000',
    });
    const keyless = await openRaw(t.baseUrl, { localAddress: '127.0.0.10' });
    const keyed = await openRaw(t.baseUrl, { localAddress: '127.0.0.11' });
    open.push(keyless, keyed);
    expect((await ask(keyed, `Authorization: Bearer ${t.key}\r\n`, '/v1/usage')).status).toBe(200);
    // A request every 200 ms: the keep-alive timeout never ends it; its lifetime must.
    const started = performance.now();
    let last = await ask(keyless);
    while (last.headers.connection !== 'close' && performance.now() - started < 20_000) {
      await new Promise((r) => setTimeout(r, 200));
      last = await ask(keyless);
    }
    expect(last.headers.connection).toBe('close');
    await within(keyless.closed, PATIENCE_MS, 'the keyless connection to close');
    // Past the lifetime too, the authenticated connection stays up.
    expect((await ask(keyed)).headers.connection).toBe('keep-alive');
    expect(keyed.isClosed()).toBe(false);
  });
});
