import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { discardBody, type DiscardBounds, type DiscardOutcome } from '../../src/http/discard-body.ts';
import { sendBodyRefusal } from '../../src/http/refuse-body.ts';
import { defined } from '../helpers/defined.ts';

const KB = 1024;
const MB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * KB, 0x20);

let server: Server | undefined;
let app: FastifyInstance | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  await app?.close();
  server = undefined;
  app = undefined;
});

/** A bare server whose handler only discards the body, as the refusal does. */
async function discardingServer(bounds: DiscardBounds) {
  const outcomes: { outcome: DiscardOutcome; bytesRead: number }[] = [];
  const done: ((v: unknown) => void)[] = [];
  server = createServer((req: IncomingMessage, res) => {
    void discardBody(req, bounds).then((outcome) => {
      outcomes.push({ outcome, bytesRead: req.socket.bytesRead });
      if (outcome === 'bytes' || outcome === 'time') req.socket.destroy();
      else res.end('done');
      done.shift()?.(outcome);
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { port, outcomes, next: () => new Promise((r) => done.push(r)) };
}

/** Sends a request head and `bytes` of body with back-pressure; never throws. */
function send(port: number, head: string, bytes: number): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(head);
  let sent = 0;
  const pump = () => {
    while (sent < bytes && !socket.destroyed) {
      sent += CHUNK.length;
      if (!socket.write(CHUNK)) return void socket.once('drain', pump);
    }
  };
  pump();
  return socket;
}
const post = (headers: string) => `POST / HTTP/1.1\r\nHost: x\r\n${headers}\r\n`;

describe('discardBody: bounded in bytes and in time', () => {
  it('reads a whole body to its end', async () => {
    const s = await discardingServer({ maxBytes: 4 * MB, maxMs: 10_000 });
    const next = s.next();
    send(s.port, post(`Content-Length: ${2 * MB}\r\n`), 2 * MB);
    expect(await next).toBe('ended');
  });

  it('stops past the byte bound (chunked body without Content-Length)', async () => {
    const s = await discardingServer({ maxBytes: 1 * MB, maxMs: 10_000 });
    const next = s.next();
    send(s.port, `${post('Transfer-Encoding: chunked\r\n')}${(20 * MB).toString(16)}\r\n`, 20 * MB);
    expect(await next).toBe('bytes');
    // Stopped near the bound, far from the 20 MB offered.
    expect(defined(s.outcomes[0], 'an outcome').bytesRead).toBeLessThan(3 * MB);
  });

  it('does not read at all when the declared Content-Length is past the byte bound', async () => {
    const s = await discardingServer({ maxBytes: 1 * MB, maxMs: 10_000 });
    const next = s.next();
    send(s.port, post(`Content-Length: ${50 * MB}\r\n`), 0);
    expect(await next).toBe('bytes');
  });

  it('gives up after the time bound on a client that stops sending', async () => {
    const s = await discardingServer({ maxBytes: 4 * MB, maxMs: 200 });
    const next = s.next();
    const started = Date.now();
    const client = send(s.port, post(`Content-Length: ${1 * MB}\r\n`), 1);
    expect(await next).toBe('time');
    // A lower bound (timers never fire early): a slow machine cannot fail it.
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    client.destroy();
  });

  it('reports a client that goes away', async () => {
    const s = await discardingServer({ maxBytes: 4 * MB, maxMs: 10_000 });
    const next = s.next();
    const client = send(s.port, post(`Content-Length: ${1 * MB}\r\n`), 1);
    setTimeout(() => client.destroy(), 50);
    expect(await next).toBe('gone');
  });
});

describe('sendBodyRefusal: the answer first, then the discard, then the close', () => {
  async function refusingApp(bounds: DiscardBounds) {
    app = Fastify({ bodyLimit: 1024 });
    app.setErrorHandler((_e, _req, reply) => sendBodyRefusal(reply.code(413), '{"refused":true}', bounds));
    app.post('/', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    return (app.server.address() as AddressInfo).port;
  }

  /** Resolves when the server closes the connection, with everything it sent. */
  const closed = (socket: Socket) =>
    new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (c) => (text += c));
      socket.on('close', () => resolve(text));
    });

  it('answers at once, keeps reading until the body ends, then closes', async () => {
    const port = await refusingApp({ maxBytes: 64 * MB, maxMs: 10_000 });
    const client = send(port, post(`Content-Length: ${8 * MB}\r\n`), 8 * MB);
    const text = await closed(client);
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(text.endsWith('{"refused":true}')).toBe(true);
  });

  it('destroys the connection of a client still sending after the time bound', async () => {
    const port = await refusingApp({ maxBytes: 64 * MB, maxMs: 300 });
    const client = send(port, post(`Content-Length: ${8 * MB}\r\n`), 64 * KB);
    const started = Date.now();
    const text = await closed(client);
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    // The client never sends the rest: only the 300 ms bound ends it; allowed over 10x that.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('destroys the connection once the byte bound is passed', async () => {
    const port = await refusingApp({ maxBytes: 1 * MB, maxMs: 10_000 });
    const client = send(port, `${post('Transfer-Encoding: chunked\r\n')}${(200 * MB).toString(16)}\r\n`, 200 * MB);
    const started = Date.now();
    await closed(client);
    // Past 1 MB in milliseconds on loopback; the 10 s time bound would end it only at 10 s.
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
