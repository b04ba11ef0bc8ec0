import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import { rawErrorResponse } from './raw-error-response.ts';

export interface ConnectionLimits {
  /** Open connections at once, all clients together. */
  maxConnections: number;
  /** Open connections at once from one address group (addressGroup); 0: no such cap. */
  maxPerAddress: number;
}

interface Warn {
  warn(obj: object, msg: string): void;
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

/**
 * The address a per-address cap counts by: an IPv4 address (IPv4-mapped IPv6 included) or
 * an IPv6 /64, since one host is commonly given a whole /64 and could otherwise open
 * connections from as many addresses as it likes.
 */
export function addressGroup(remote: string | undefined): string {
  if (remote === undefined) return '';
  try {
    let a = ipaddr.parse(remote);
    if (a instanceof ipaddr.IPv6 && a.isIPv4MappedAddress()) a = a.toIPv4Address();
    if (a instanceof ipaddr.IPv4) return a.toString();
    return `${a.parts.slice(0, 4).map((p) => p.toString(16)).join(':')}::/64`;
  } catch {
    return remote;
  }
}

/**
 * Caps open connections, in all and per client address. The check runs when a connection
 * is accepted, before Node's HTTP parser is attached: a refused connection is answered 503
 * in the Error shape and closed without a byte of it being parsed, so a flood of slow
 * sockets costs almost nothing and cannot take the slots of other clients. Node's own
 * maxConnections stays as a backstop (it drops silently) above the cap plus the lingering
 * refusals.
 *
 * No X-Forwarded-For: connections are counted before any header is read, and behind a proxy
 * they come from the proxy; operators raise or turn off the per-address cap there.
 */
export function limitConnections(server: Server, limits: ConnectionLimits, log: Warn): void {
  const accept = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.maxConnections = limits.maxConnections + LINGER.sockets;

  let open = 0;
  const perAddress = new Map<string, number>();
  let lingering = 0;
  let refused = { total: 0, perAddress: 0 };
  let warnedAt = -Infinity;

  const refuse = (socket: Socket, group: string, cap: keyof typeof refused, message: string) => {
    refused[cap]++;
    const now = performance.now();
    if (now - warnedAt >= WARN_EVERY_MS) {
      warnedAt = now;
      log.warn({ refused, latest_address: group, limits }, 'connections refused over the connection caps (counts since the previous such line)');
      refused = { total: 0, perAddress: 0 };
    }
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

  server.on('connection', (socket: Socket) => {
    const group = addressGroup(socket.remoteAddress);
    const fromGroup = perAddress.get(group) ?? 0;
    if (open >= limits.maxConnections) {
      refuse(socket, group, 'total', `the server has too many open connections (at most ${limits.maxConnections}); retry shortly`);
      return;
    }
    if (limits.maxPerAddress > 0 && fromGroup >= limits.maxPerAddress) {
      refuse(
        socket,
        group,
        'perAddress',
        `too many open connections from your address (at most ${limits.maxPerAddress}); reuse connections (keep-alive) or open fewer at once, then retry`,
      );
      return;
    }
    open++;
    perAddress.set(group, fromGroup + 1);
    socket.once('close', () => {
      open--;
      const left = (perAddress.get(group) ?? 1) - 1;
      if (left === 0) perAddress.delete(group);
      else perAddress.set(group, left);
    });
    for (const listener of accept) listener.call(server, socket);
  });
}
