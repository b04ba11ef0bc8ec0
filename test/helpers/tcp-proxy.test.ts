import net, { type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/** The proxy between a client and a loopback echo server. */

let echo: net.Server;
let proxy: TcpProxy;

beforeAll(async () => {
  echo = net.createServer((s) => s.pipe(s));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', () => resolve()));
  proxy = await startTcpProxy('127.0.0.1', (echo.address() as AddressInfo).port);
});
afterAll(async () => {
  await proxy.close();
  await new Promise<void>((resolve) => echo.close(() => resolve()));
});

const connect = (): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const s = net.connect(proxy.port, proxy.host, () => resolve(s));
    s.once('error', reject);
  });

/**
 * The echo of `text`, or 'closed' / 'silent' when none comes within `ms`. An echo comes in a
 * millisecond or so: waited for up to 10 s (the machine may be busy, issue 24); silence is
 * asked for with SILENCE_MS, which a busy machine can only make easier to see.
 */
const SILENCE_MS = 300;
function roundTrip(s: Socket, text: string, ms = 10_000): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done('silent'), ms);
    const done = (v: string) => {
      clearTimeout(timer);
      s.off('data', onData);
      resolve(v);
    };
    const onData = (b: Buffer) => done(b.toString());
    s.on('data', onData);
    s.once('close', () => done('closed'));
    s.on('error', () => undefined);
    if (!s.destroyed) s.write(text);
  });
}

describe('startTcpProxy', () => {
  it('forwards, then cut() destroys live connections and resets new ones until restore()', async () => {
    const a = await connect();
    expect(await roundTrip(a, 'hello')).toBe('hello');
    expect(proxy.live).toBe(1);
    proxy.cut();
    expect(await roundTrip(a, 'again')).toBe('closed');
    const refused = await connect().then(
      (s) => roundTrip(s, 'x'),
      () => 'closed',
    );
    expect(refused).toBe('closed');
    proxy.restore();
    const b = await connect();
    expect(await roundTrip(b, 'back')).toBe('back');
    b.destroy();
  });

  it("cut('blackhole') accepts new connections and never answers; restore() closes them", async () => {
    proxy.cut('blackhole');
    const s = await connect();
    expect(await roundTrip(s, 'anyone?', SILENCE_MS)).toBe('silent');
    const closed = new Promise((resolve) => s.once('close', resolve));
    proxy.restore();
    await closed;
    const t = await connect();
    expect(await roundTrip(t, 'ok')).toBe('ok');
    t.destroy();
  });

  it('stall() keeps connections open but silent; restore() delivers what waited', async () => {
    const s = await connect();
    expect(await roundTrip(s, 'one')).toBe('one');
    proxy.stall();
    expect(await roundTrip(s, 'two', SILENCE_MS)).toBe('silent');
    const late = roundTrip(s, '');
    proxy.restore();
    expect(await late).toBe('two');
    s.destroy();
  });

  it('url() points a connection string at the proxy', () => {
    expect(proxy.url('redis://127.0.0.1:6379/0')).toBe(`redis://${proxy.address}/0`);
    expect(proxy.url('postgres://postgres@127.0.0.1:5432/test')).toBe(`postgres://postgres@${proxy.address}/test`);
  });
});
