import net, { type AddressInfo, type Socket } from 'node:net';

/**
 * A loopback TCP proxy the test controls, put between Scout and Redis or PostgreSQL to
 * simulate outages without touching the shared services.
 *
 *   const proxy = await startTcpProxy('127.0.0.1', 6379);
 *   proxy.url('redis://127.0.0.1:6379/0')   // 'redis://127.0.0.1:<proxy port>/0'
 *   proxy.cut()                              // live connections destroyed, new ones reset
 *   proxy.cut('blackhole')                   // live connections destroyed, new ones held silent
 *   proxy.stall()                            // a partition: nothing closed, no byte passes
 *   proxy.restore()                          // back to forwarding
 *   await proxy.close()
 *
 * Blackholed and stalled sockets never get an answer, so clients find out only through their
 * own timeouts (connect, command, socket). restore() closes the held (blackholed) sockets so
 * their clients reconnect, and lets stalled pairs carry on where they stopped.
 */

export type CutMode = 'refuse' | 'blackhole';

export interface TcpProxy {
  readonly port: number;
  readonly host: string;
  /** `host:port` of the proxy. */
  readonly address: string;
  /** `target` (a URL such as redis://u@host:6379/0) with its host and port swapped for the proxy's. */
  url(target: string): string;
  /** Connections accepted so far (forwarded or not). */
  readonly accepted: number;
  /** Live connections now. */
  readonly live: number;
  cut(mode?: CutMode): void;
  stall(): void;
  restore(): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
}

type State = 'open' | CutMode | 'stall';

export async function startTcpProxy(targetHost: string, targetPort: number, host = '127.0.0.1'): Promise<TcpProxy> {
  let state: State = 'open';
  let accepted = 0;
  const pairs = new Set<Pair>();
  const held = new Set<Socket>();

  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => to.write(chunk));
    from.on('end', () => to.end());
    from.on('error', () => to.destroy());
    from.on('close', () => to.destroy());
  };

  const server = net.createServer((client) => {
    accepted++;
    if (state === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    if (state === 'blackhole' || state === 'stall') {
      held.add(client);
      client.pause();
      client.on('error', () => undefined);
      client.on('close', () => held.delete(client));
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    const pair: Pair = { client, upstream };
    pairs.add(pair);
    client.on('close', () => pairs.delete(pair));
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  const destroyLive = () => {
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };

  return {
    port,
    host,
    address: `${host}:${port}`,
    url(target) {
      const u = new URL(target);
      u.hostname = host;
      u.port = String(port);
      return u.toString();
    },
    get accepted() {
      return accepted;
    },
    get live() {
      return pairs.size;
    },
    cut(mode = 'refuse') {
      state = mode;
      destroyLive();
    },
    stall() {
      state = 'stall';
      for (const { client, upstream } of pairs) {
        client.pause();
        upstream.pause();
      }
    },
    restore() {
      state = 'open';
      for (const s of held) s.destroy();
      held.clear();
      for (const { client, upstream } of pairs) {
        client.resume();
        upstream.resume();
      }
    },
    async close() {
      state = 'refuse';
      destroyLive();
      for (const s of held) s.destroy();
      held.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
