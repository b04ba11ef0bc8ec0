import { createHash } from 'node:crypto';
import pg from 'pg';

export interface ChangeListenerOptions {
  /** Settings of the dedicated connection (never one from the pool: it stays in LISTEN). */
  client: pg.ClientConfig;
  channel: string;
  /** The connection is tested this often; one that does not answer is dropped (default 5000 ms). */
  heartbeatMs?: number;
  /** How long a heartbeat may take (default 2000 ms). */
  heartbeatTimeoutMs?: number;
  /** First wait before reconnecting; doubles up to maxBackoffMs (defaults 100 ms, 5000 ms). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** The connection is lost or cannot be made (told once per outage, for the log); the cache is off until it is back. */
  onDown?: (error: Error) => void;
  /** Listening again after an outage. */
  onUp?: () => void;
}

export interface ChangeListener {
  /**
   * A number that moves on every notification and every time the connection goes down or
   * comes back; undefined while not listening. Something read while this stayed the same
   * number is still current, unless a notification is in flight (milliseconds).
   */
  epoch(): number | undefined;
  /** Starts listening (idempotent); until LISTEN is acknowledged, epoch() is undefined. */
  start(): void;
  close(): Promise<void>;
}

/** NOTIFY channel of `topic` in `schema`: deployments sharing a database never hear each other. */
export function channelName(schema: string, topic: string): string {
  const plain = `scout_${topic}_${schema}`;
  // Channel names are identifiers: PostgreSQL cuts them at 63 bytes, which could make two
  // long schema names share a channel; those get a digest instead.
  return plain.length <= 63
    ? plain
    : `scout_${topic}_${createHash('sha256').update(schema).digest('hex').slice(0, 32)}`;
}

/**
 * A dedicated connection that LISTENs on one channel, reconnecting with backoff. It is
 * "up" only from the acknowledged LISTEN until an error, an end, or a heartbeat that gets no
 * answer: a silently dead network otherwise looks like a quiet channel. Consumers treat
 * "not up" as "could have missed a notification" (see epoch()).
 */
export function listenForChanges(o: ChangeListenerOptions): ChangeListener {
  const heartbeatMs = o.heartbeatMs ?? 5000;
  const heartbeatTimeoutMs = o.heartbeatTimeoutMs ?? 2000;
  const backoffMs = o.backoffMs ?? 100;
  const maxBackoffMs = o.maxBackoffMs ?? 5000;
  let counter = 0;
  let up = false;
  let started = false;
  let closed = false;
  let client: pg.Client | undefined;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let beat: NodeJS.Timeout | undefined;
  let outage = false;

  const down = (c: pg.Client, error?: Error): void => {
    if (c !== client) return;
    client = undefined;
    if (up) counter++;
    up = false;
    if (!outage && !closed) o.onDown?.(error ?? new Error('the listening connection ended'));
    outage = true;
    clearInterval(beat);
    c.end().catch(() => undefined);
    if (closed) return;
    const wait = Math.min(maxBackoffMs, backoffMs * 2 ** failures++) * (0.5 + Math.random() / 2);
    retry = setTimeout(connect, wait);
    retry.unref();
  };

  const heartbeat = (c: pg.Client): void => {
    const timer = setTimeout(
      () => down(c, new Error(`no answer to a heartbeat within ${heartbeatTimeoutMs} ms`)),
      heartbeatTimeoutMs,
    );
    c.query('SELECT 1').then(
      () => clearTimeout(timer),
      (e: Error) => {
        clearTimeout(timer);
        down(c, e);
      },
    );
  };

  function connect(): void {
    if (closed) return;
    const c = new pg.Client({ ...o.client, application_name: o.channel, keepAlive: true });
    client = c;
    c.on('error', (e) => down(c, e));
    c.on('end', () => down(c));
    c.on('notification', (n) => {
      if (c === client && n.channel === o.channel) counter++;
    });
    c.connect()
      .then(() => c.query(`LISTEN "${o.channel}"`))
      .then(() => {
        if (c !== client) return;
        failures = 0;
        counter++;
        up = true;
        if (outage) o.onUp?.();
        outage = false;
        beat = setInterval(() => heartbeat(c), heartbeatMs);
        beat.unref();
      })
      .catch((e: Error) => down(c, e));
  }

  return {
    epoch: () => (up ? counter : undefined),
    start() {
      if (started || closed) return;
      started = true;
      connect();
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(beat);
      const c = client;
      client = undefined;
      up = false;
      counter++;
      // end() destroys the socket when a query is in flight, so a stalled peer cannot hold it.
      if (c) await c.end().catch(() => undefined);
    },
  };
}
