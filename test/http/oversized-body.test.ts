import { execFile } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectShape } from '../helpers/strict-schemas.ts';
import { ErrorBody } from '../../src/schemas/error.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import type { Seen } from './upload-client.ts';

const run = promisify(execFile);

/**
 * A body over SCOUT_BODY_LIMIT_BYTES must reach Node clients (undici fetch, node:http) as a
 * 413 in the Error shape, not as EPIPE/ECONNRESET: the server answers, then reads and throws
 * away the rest of the body before closing, so its close never resets the connection under
 * the client's feet.
 */
let t: TestScout;
beforeAll(async () => {
  t = await startTestScout({ SCOUT_RATE_LIMIT_RPM: '100000', SCOUT_BODY_LIMIT_BYTES: '65536' });
});
afterAll(() => t.close());

const MB = 1_000_000;
const SIZES = [5 * MB, 50 * MB];
const ROUNDS = 5;
const CHUNK = Buffer.alloc(64 * 1024, 0x20);

/** Runs upload-client.ts in its own process (see there why) and returns what it saw. */
async function upload(
  client: 'fetch' | 'http',
  size: number,
  framing: 'length' | 'chunked',
  rounds: number,
): Promise<Seen[]> {
  const script = fileURLToPath(new URL('./upload-client.ts', import.meta.url));
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', script, t.baseUrl, t.key, client, String(size), framing, String(rounds)],
    {
      timeout: 60_000,
    },
  );
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Seen);
}

const refused: Seen = {
  status: 413,
  connection: 'close',
  requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
  body: { error: { status: 413, message: 'request body is larger than 65536 bytes' } },
};

/** Writes `total` body bytes to a raw socket with back-pressure. */
function writeBody(socket: Socket, total: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        const n = Math.min(CHUNK.length, total - sent);
        sent += n;
        if (!socket.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) {
          socket.once('drain', pump);
          return;
        }
      }
      resolve();
    };
    socket.once('error', reject);
    pump();
  });
}

describe('an oversized body is answered 413 in the Error shape, every time', () => {
  for (const size of SIZES) {
    for (const framing of ['length', 'chunked'] as const) {
      const how = framing === 'chunked' ? 'chunked' : 'with Content-Length';
      for (const client of ['fetch', 'http'] as const) {
        it(`${client === 'fetch' ? 'fetch (undici)' : 'node:http'}, ${size / MB} MB ${how}, ${ROUNDS} times`, async () => {
          const seen = await upload(client, size, framing, ROUNDS);
          expect(seen).toEqual(Array.from({ length: ROUNDS }, () => refused));
          for (const s of seen) expectShape(ErrorBody, s.body);
        });
      }
    }
  }

  it('a body just over the limit gets the 413, and the server keeps answering', async () => {
    expect(await upload('http', 65_537, 'chunked', 1)).toEqual([refused]);
    const ok = await t.request('POST', '/v1/search', { body: { query: 'scout' } });
    expect(ok.status).toBe(200);
  });
});

describe('discarded bytes are not kept in memory', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  /**
   * Memory held in Buffers: every chunk read from a socket is one, so keeping them would show
   * here, 50 MB a time. V8 frees collected buffers on a background thread, so the lowest of a
   * few readings after a collection counts, not the first.
   */
  const buffers = async () => {
    let lowest = Infinity;
    for (let i = 0; i < 10; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 10));
      lowest = Math.min(lowest, process.memoryUsage().arrayBuffers);
    }
    return lowest;
  };

  it('50 MB read and discarded, 3 times, leaves the memory held in buffers where it was', async () => {
    const server = t.scout.app.server;
    const { hostname, port } = new URL(t.baseUrl);
    for (let i = 0; i < 3; i++) {
      // The server-side socket tells exactly how much the server has read: no timing guess.
      const serverSide = new Promise<Socket>((resolve) => server.once('connection', resolve));
      const before = await buffers();
      // 60 MB declared, 50 MB sent, then a pause: the server is mid-drain while we measure.
      const client = connect(Number(port), hostname);
      const received: Buffer[] = [];
      client.on('data', (c: Buffer) => received.push(c));
      client.on('error', () => {}); // writeBody reports write errors; the answer is checked below
      const closed = new Promise((resolve) => client.on('close', resolve));
      client.write(
        `POST /v1/search HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${t.key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${60 * MB}\r\n\r\n`,
      );
      await writeBody(client, 50 * MB);
      const socket = await serverSide;
      for (let waited = 0; socket.bytesRead < 50 * MB; waited += 20) {
        if (waited > 20_000) throw new Error(`the server read only ${socket.bytesRead} bytes`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const grown = (await buffers()) - before;
      expect(grown).toBeLessThan(16 * MB);
      await writeBody(client, 10 * MB);
      await closed;
      const [head, body] = Buffer.concat(received).toString().split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 413 /);
      expect(JSON.parse(body!)).toEqual({ error: { status: 413, message: 'request body is larger than 65536 bytes' } });
    }
  });
});
