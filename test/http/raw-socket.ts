import { connect, type Socket } from 'node:net';

/**
 * A raw TCP client for tests of slow and abusive clients: it writes exactly what it is told
 * (or trickles it), records every byte the server sends and when the server closed.
 */
export interface RawSocket {
  socket: Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** When the connection opened (performance.now()). */
  openedAt: number;
  /** Resolves with the ms from open to close, whoever closed it. */
  closed: Promise<number>;
  isClosed(): boolean;
  /**
   * Writes `text` one character every `everyMs`, until done or closed; then resolves: true
   * when every character was written, false when the connection closed first.
   */
  trickle(text: string, everyMs: number): Promise<boolean>;
  /** Waits until the received text matches (a pattern or a test), or rejects after `ms`. */
  waitFor(pattern: RegExp | ((text: string) => boolean), ms: number): Promise<string>;
}

export interface RawOptions {
  /** Source address, e.g. 127.0.0.3: on Linux every 127.x address reaches a 127.0.0.1 server. */
  localAddress?: string;
}

export function openRaw(baseUrl: string, options: RawOptions = {}): Promise<RawSocket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({
      port: Number(port),
      host: hostname,
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    let out = '';
    let isClosed = false;
    const openedAt = performance.now();
    socket.on('data', (c) => (out += c.toString('latin1')));
    // Resets are expected: the server may close on a client that is still sending.
    socket.on('error', () => undefined);
    const closed = new Promise<number>((res) =>
      socket.on('close', () => {
        isClosed = true;
        res(performance.now() - openedAt);
      }),
    );
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => out,
        openedAt,
        closed,
        isClosed: () => isClosed,
        async trickle(text, everyMs) {
          for (const ch of text) {
            if (isClosed || socket.destroyed) return false;
            socket.write(ch);
            await new Promise((r) => setTimeout(r, everyMs));
          }
          return true;
        },
        waitFor(pattern, ms) {
          return new Promise((res, rej) => {
            const check = () => {
              if (typeof pattern === 'function' ? pattern(out) : pattern.test(out)) {
                clearInterval(timer);
                res(out);
              } else if (performance.now() - started > ms) {
                clearInterval(timer);
                rej(new Error(`no ${pattern} within ${ms} ms; received: ${JSON.stringify(out.slice(0, 300))}`));
              }
            };
            const started = performance.now();
            const timer = setInterval(check, 10);
            check();
          });
        },
      }),
    );
    socket.once('error', reject);
  });
}

/** Rejects if `p` has not settled within `ms`: keeps every wait in a test bounded. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, rej) => {
      timer = setTimeout(() => rej(new Error(`${what}: not within ${ms} ms`)), ms);
    }),
  ]);
}

/** `T` is the body the test expects (the JSON is parsed, not checked: expectShape does that). */
export interface RawResponse<T = unknown> {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: T;
}

/** Every complete HTTP response in `text`, in order (JSON bodies, framed by Content-Length). */
export function parseResponses<T = unknown>(text: string): RawResponse<T>[] {
  const out: RawResponse<T>[] = [];
  let at = 0;
  for (;;) {
    const end = text.indexOf('\r\n\r\n', at);
    if (end < 0) return out;
    const [statusLine, ...lines] = text.slice(at, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const i = line.indexOf(':');
      headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (text.length < end + 4 + length) return out;
    const raw = text.slice(end + 4, end + 4 + length);
    out.push({
      status: Number(statusLine!.split(' ')[1]),
      headers,
      body: (raw.length > 0 ? JSON.parse(raw) : undefined) as T,
    });
    at = end + 4 + length;
  }
}

/** The first complete response in `text`; throws when there is none. */
export function parseResponse<T = unknown>(text: string): RawResponse<T> {
  const first = parseResponses<T>(text)[0];
  if (first === undefined) throw new Error(`no complete response in ${JSON.stringify(text.slice(0, 300))}`);
  return first;
}

/** For waitFor: true once `n` complete responses have arrived. */
export const hasResponses =
  (n: number) =>
  (text: string): boolean =>
    parseResponses(text).length >= n;
