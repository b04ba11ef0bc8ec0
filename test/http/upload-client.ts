/**
 * Uploads a large body to POST /v1/search from its own process and prints one JSON line per
 * attempt: what the client saw (status, headers, body) or the error it got. It runs apart
 * from the server on purpose: in one process the client reads the answer before the
 * server's close lands, which hides the reset real clients see.
 *
 * Usage: node --import tsx upload-client.ts <base url> <key> <fetch|http> <bytes> <length|chunked> <rounds>
 */
import { request } from 'node:http';

const [baseUrl, key, client, bytes, framing, rounds] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const size = Number(bytes);
const chunked = framing === 'chunked';
const CHUNK = Buffer.alloc(64 * 1024, 0x20);
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

/** What one upload saw (the parent test reads these lines). */
export interface Seen {
  status?: number | undefined;
  connection?: string | null;
  requestId?: string | null;
  body?: unknown;
  error?: string;
}

const errorCode = (e: unknown): string => {
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  return err.cause?.code ?? err.code ?? err.cause?.message ?? err.message ?? String(e);
};

async function viaFetch(): Promise<Seen> {
  let body: BodyInit;
  if (chunked) {
    let sent = 0;
    body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent >= size) return c.close();
        const n = Math.min(CHUNK.length, size - sent);
        sent += n;
        c.enqueue(new Uint8Array(CHUNK.subarray(0, n)));
      },
    });
  } else body = new Uint8Array(size).fill(0x20);
  try {
    const res = await fetch(`${baseUrl}/v1/search`, {
      method: 'POST',
      headers,
      body,
      ...(chunked ? { duplex: 'half' } : {}),
    } as RequestInit);
    return {
      status: res.status,
      connection: res.headers.get('connection'),
      requestId: res.headers.get('x-request-id'),
      body: await res.json(),
    };
  } catch (e) {
    return { error: errorCode(e) };
  }
}

/** node:http with back-pressure. An error after the answer was read (the client closes its
 * own socket when a `Connection: close` answer ends) does not count: the caller has it. */
function viaNodeHttp(): Promise<Seen> {
  return new Promise((resolve) => {
    const req = request(
      `${baseUrl}/v1/search`,
      { method: 'POST', headers: chunked ? headers : { ...headers, 'content-length': String(size) }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // kept as text: the test shows it
          }
          resolve({
            status: res.statusCode,
            connection: (res.headers.connection as string) ?? null,
            requestId: (res.headers['x-request-id'] as string) ?? null,
            body,
          });
        });
        res.on('error', (e) => resolve({ error: errorCode(e) }));
      },
    );
    req.on('error', (e) => resolve({ error: errorCode(e) }));
    let sent = 0;
    const pump = () => {
      while (sent < size && !req.destroyed) {
        const n = Math.min(CHUNK.length, size - sent);
        sent += n;
        if (!req.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

for (let i = 0; i < Number(rounds); i++) {
  const seen = client === 'fetch' ? await viaFetch() : await viaNodeHttp();
  process.stdout.write(`${JSON.stringify(seen)}\n`);
}
