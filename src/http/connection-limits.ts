import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { addressGroup } from './address-group.ts';
import { rawErrorResponse } from './raw-error-response.ts';
import type { RequestsInFlight } from './requests-in-flight.ts';

export interface ConnectionLimits {
  /** Open connections at once, all clients together. */
  maxConnections: number;
  /** Open connections at once from one address group (addressGroup); 0: no such cap. */
  maxPerAddress: number;
  /** Life of a connection that no API key has authenticated on, from its opening, in ms. */
  unauthenticatedMs: number;
}

interface Warn {
  warn(obj: object, msg: string): void;
}

/** What the app asks of the limiter when it answers a request. */
export interface ConnectionLimiter {
  /**
   * Called as an answer is about to be written: whether the connection should close after
   * it (a connection no key has authenticated on, older than its lifetime).
   */
  closeAfterAnswer(socket: Socket, authenticated: boolean): boolean;
}

/**
 * A refused connection is answered, then kept up to LINGER.ms (reading and dropping at
 * most LINGER.bytes) so a client that sent its request before reading gets the 503 rather
 * than a reset. At most LINGER.sockets linger at once: past that a flood of refusals is
 * closed at once, so refusing never holds more than that many descriptors.
 */
const LINGER = { sockets: 256, ms: 1_000, bytes: 64 * 1024 };

/** How often a flood of refusals is logged: one line per period, with the counts. */
const WARN_EVERY_MS = 10_000;

interface Conn {
  socket: Socket;
  group: string;
  openedAt: number;
  authenticated: boolean;
}

/**
 * Caps open connections, in all and per client address, and shares the total fairly. The
 * check runs when a connection is accepted, before Node's HTTP parser is attached: a refused
 * connection is answered 503 in the Error shape and closed without a byte of it being
 * parsed. Node's own maxConnections stays as a backstop (it drops silently) above the cap
 * plus the lingering refusals.
 *
 * Fair share: when the total cap is reached, a connection from an address holding fewer
 * than maxConnections / (addresses holding connections, its own included) is still
 * admitted: the address holding the most connections, above that share, loses one that has
 * no request in flight (idle keep-alive, or still sending its headers). So clients that hold
 * hundreds of connections cannot starve one that holds none; requests in flight are never cut.
 *
 * Unauthenticated connections (no request on them carried a valid API key) live
 * `unauthenticatedMs` from their opening: the next answer after that says Connection: close.
 * Keyless keep-alive connections asking /healthz every few seconds otherwise lived for
 * their whole request allowance (1000 requests: about 50 minutes).
 *
 * No X-Forwarded-For: connections are counted before any header is read, and behind a proxy
 * they come from the proxy; operators raise or turn off the per-address cap there.
 */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  log: Warn,
  inFlight: RequestsInFlight,
  now: () => number = () => performance.now(),
): ConnectionLimiter {
  const accept = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.maxConnections = limits.maxConnections + LINGER.sockets;

  const conns = new Map<Socket, Conn>();
  const byGroup = new Map<string, Set<Conn>>();
  let lingering = 0;
  let counts = { total: 0, perAddress: 0, reclaimed: 0 };
  let warnedAt = -Infinity;

  const note = (group: string, what: keyof typeof counts) => {
    counts[what]++;
    const t = now();
    if (t - warnedAt >= WARN_EVERY_MS) {
      warnedAt = t;
      log.warn(
        {
          refused: { total: counts.total, perAddress: counts.perAddress },
          reclaimed: counts.reclaimed,
          latest_address: group,
          limits,
        },
        'connections refused over the connection caps, or reclaimed for a fair share (counts since the previous such line)',
      );
      counts = { total: 0, perAddress: 0, reclaimed: 0 };
    }
  };

  const refuse = (socket: Socket, group: string, cap: 'total' | 'perAddress', message: string) => {
    note(group, cap);
    // Resets from a client that sent before reading are expected; nothing to report.
    socket.on('error', () => undefined);
    if (lingering >= LINGER.sockets) {
      socket.destroy();
      return;
    }
    lingering++;
    let read = 0;
    const timer = setTimeout(() => socket.destroy(), LINGER.ms);
    timer.unref();
    socket.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > LINGER.bytes) socket.destroy();
    });
    socket.on('end', () => socket.destroy());
    socket.once('close', () => {
      clearTimeout(timer);
      lingering--;
    });
    socket.end(rawErrorResponse(503, 'Service Unavailable', message, 'Retry-After: 1\r\n'));
  };

  /** Frees a slot for `group` (holding `held`), if fairness says so and some connection is idle. */
  const reclaimFor = (group: string, held: number): boolean => {
    const groups = byGroup.size + (held === 0 ? 1 : 0);
    const share = Math.max(1, Math.floor(limits.maxConnections / groups));
    if (held >= share) return false;
    let biggest: Set<Conn> | undefined;
    for (const set of byGroup.values()) if (biggest === undefined || set.size > biggest.size) biggest = set;
    if (biggest === undefined || biggest.size <= share) return false;
    // An unauthenticated idle one first, then any idle one, oldest first (Set order).
    let victim: Conn | undefined;
    for (const c of biggest) {
      if (inFlight.on(c.socket) > 0) continue;
      if (!c.authenticated) {
        victim = c;
        break;
      }
      victim ??= c;
    }
    if (victim === undefined) return false;
    note(group, 'reclaimed');
    forget(victim);
    victim.socket.destroy();
    return true;
  };

  const forget = (c: Conn) => {
    if (!conns.delete(c.socket)) return;
    const set = byGroup.get(c.group);
    set?.delete(c);
    if (set?.size === 0) byGroup.delete(c.group);
  };

  server.on('connection', (socket: Socket) => {
    const group = addressGroup(socket.remoteAddress);
    const held = byGroup.get(group)?.size ?? 0;
    if (limits.maxPerAddress > 0 && held >= limits.maxPerAddress) {
      refuse(
        socket,
        group,
        'perAddress',
        `too many open connections from your address (at most ${limits.maxPerAddress}); reuse connections (keep-alive) or open fewer at once, then retry`,
      );
      return;
    }
    if (conns.size >= limits.maxConnections && !reclaimFor(group, held)) {
      refuse(
        socket,
        group,
        'total',
        `the server has too many open connections (at most ${limits.maxConnections}); retry shortly`,
      );
      return;
    }
    const c: Conn = { socket, group, openedAt: now(), authenticated: false };
    conns.set(socket, c);
    let set = byGroup.get(group);
    if (set === undefined) byGroup.set(group, (set = new Set()));
    set.add(c);
    socket.once('close', () => forget(c));
    for (const listener of accept) listener.call(server, socket);
  });

  return {
    closeAfterAnswer(socket, authenticated) {
      const c = conns.get(socket);
      if (c === undefined) return false;
      if (authenticated) c.authenticated = true;
      return !c.authenticated && now() - c.openedAt >= limits.unauthenticatedMs;
    },
  };
}
