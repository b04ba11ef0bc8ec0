import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { trackRequestsInFlight } from '../../src/http/requests-in-flight.ts';
import { openRaw, type RawSocket } from './raw-socket.ts';
import { defined } from '../helpers/defined.ts';

const servers: ReturnType<typeof createServer>[] = [];
const open: RawSocket[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) c.socket.destroy();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A server that holds every request unanswered, tracked, with one request sent and held. */
async function oneHeldRequest() {
  const held: ServerResponse[] = [];
  const server = createServer((_req, res) => void held.push(res));
  servers.push(server);
  const inFlight = trackRequestsInFlight(server);
  const settled: Socket[] = [];
  inFlight.onSettled((socket) => settled.push(socket));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const c = await openRaw(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  open.push(c);
  c.socket.write('GET /a HTTP/1.1\r\nHost: a\r\n\r\n');
  for (let i = 0; i < 2000 && held.length === 0; i += 1) await new Promise((r) => setTimeout(r, 5));
  return { held, inFlight, settled, c };
}

describe('trackRequestsInFlight', () => {
  it('counts a connection’s unanswered requests, lists their responses and says when each settles', async () => {
    const { held, inFlight, settled, c } = await oneHeldRequest();
    const response = defined(held[0], 'a held response');
    const socket = response.socket!;
    expect(inFlight.on(socket)).toBe(1);
    expect([...inFlight.responses()]).toEqual([held[0]]);

    response.end('done');
    await c.waitFor(/done$/, 10_000);
    expect(inFlight.on(socket)).toBe(0);
    expect([...inFlight.responses()]).toEqual([]);
    expect(settled).toEqual([socket]);
  });

  it('lowers the count when the client leaves before its answer', async () => {
    const { held, inFlight, settled, c } = await oneHeldRequest();
    const socket = defined(held[0], 'a held response').socket!;
    c.socket.destroy();
    for (let i = 0; i < 2000 && settled.length === 0; i += 1) await new Promise((r) => setTimeout(r, 5));
    expect(settled).toEqual([socket]);
    expect(inFlight.on(socket)).toBe(0);
  });
});
