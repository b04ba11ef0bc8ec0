/**
 * Keyless keep-alive floods and shutdown (issue 23, items 1 and 2), against a real
 * `node bin/scout.mjs serve` on loopback:
 *   node --import tsx bench/connection-flood.ts [--sockets 1100] [--seconds 20]
 * 1. Flood: `--sockets` keep-alive connections from 18 loopback addresses (127.0.0.10–27),
 *    each sending GET /healthz without a key every 3 s (and opening again when closed), held
 *    while a normal client on 127.0.0.1 asks GET /v1/usage with its key every 0.5 s for
 *    `--seconds`. Printed: the client's answers by status, the flood's open sockets.
 * 2. Shutdown: three searches, then one connection that sends nothing (and, in a second
 *    run, one that trickles its headers), then SIGTERM. Printed: time to exit (SIGKILL at
 *    60 s), the exit, and the month's budget `used` (3 when the lease went back).
 * Only loopback addresses; every loop is bounded in count and time.
 */
import { connect, type Socket } from 'node:net';
import {
  freePort,
  killStarted,
  scoutEnv,
  spawnScout,
  track,
  waitFor,
  within,
  type ScoutProcess,
} from '../test/helpers/scout-process.ts';
import { budgetUsed, firstKey } from '../test/helpers/served-scout.ts';
import { defined } from '../test/helpers/defined.ts';

const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const SOCKETS = arg('sockets', 1100);
const SECONDS = arg('seconds', 20);
const ADDRESSES = Array.from({ length: 18 }, (_, i) => `127.0.0.${10 + i}`);

async function start(
  extra: Record<string, string> = {},
): Promise<{ p: ScoutProcess; port: number; key: string; dataDir: string }> {
  const port = await freePort();
  const env = scoutEnv(port, { SCOUT_LOG_LEVEL: 'warn', ...extra });
  const p = spawnScout('node', env);
  await waitFor(60_000, 'Scout listening', () => (p.stdout().includes('Scout listening') ? true : undefined));
  track(p);
  const key = firstKey(env.SCOUT_DATA_DIR!);
  return { p, port, key, dataDir: env.SCOUT_DATA_DIR! };
}

async function flood(): Promise<void> {
  const { p, port, key } = await start();
  let stop = false;
  let open = 0;
  let opened = 0;
  const sockets = new Set<Socket>();
  const one = (address: string) => {
    if (stop) return;
    const s = connect({ port, host: '127.0.0.1', localAddress: address });
    sockets.add(s);
    let timer: NodeJS.Timeout | undefined;
    s.on('error', () => undefined);
    s.on('data', () => undefined);
    s.once('connect', () => {
      open++;
      opened++;
      const ask = () => s.write('GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n');
      ask();
      timer = setInterval(ask, 3000);
    });
    s.once('close', () => {
      sockets.delete(s);
      if (timer) {
        clearInterval(timer);
        open--;
      }
      // An attacker opens again; a short pause keeps this loop from spinning.
      setTimeout(() => one(address), 100);
    });
  };
  for (let i = 0; i < SOCKETS; i++) {
    one(defined(ADDRESSES[i % ADDRESSES.length], 'an address'));
    if (i % 50 === 49) await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 4000));
  const statuses = new Map<string, number>();
  const openAtStart = open;
  const end = Date.now() + SECONDS * 1000;
  while (Date.now() < end) {
    const status = await fetch(`http://127.0.0.1:${port}/v1/usage`, {
      headers: { authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(2000),
    })
      .then(async (r) => (await r.arrayBuffer(), String(r.status)))
      .catch((e: Error) => e.name);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    await new Promise((r) => setTimeout(r, 500));
  }
  const ok = statuses.get('200') ?? 0;
  const total = [...statuses.values()].reduce((a, b) => a + b, 0);
  console.log(
    `flood: ${SOCKETS} keyless keep-alive sockets from ${ADDRESSES.length} addresses (GET /healthz every 3 s, reopened when closed)`,
  );
  console.log(
    `  flood sockets open: ${openAtStart} when the client started, ${open} at its end; ${opened} connections opened in all`,
  );
  console.log(
    `  normal client (127.0.0.1, GET /v1/usage every 0.5 s for ${SECONDS} s): ${ok}/${total} answered 200; by status: ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  stop = true;
  for (const s of sockets) s.destroy();
  p.child.kill('SIGTERM');
  await within(60_000, 'exit', p.exited).catch(() => p.child.kill('SIGKILL'));
}

async function shutdown(kind: 'idle' | 'trickle'): Promise<void> {
  const { p, port, key, dataDir } = await start();
  for (const q of ['one', 'two', 'three']) {
    const r = await fetch(`http://127.0.0.1:${port}/v1/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: q }),
    });
    await r.arrayBuffer();
  }
  const s = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.5' });
  s.on('error', () => undefined);
  await new Promise((r) => s.once('connect', r));
  let trickle: NodeJS.Timeout | undefined;
  if (kind === 'trickle') {
    const text = `GET /healthz HTTP/1.1\r\nHost: a\r\nX-Slow: ${'x'.repeat(10_000)}`;
    let i = 0;
    trickle = setInterval(() => s.write(text.charAt(i++ % text.length)), 500);
  }
  await new Promise((r) => setTimeout(r, 300));
  const t0 = performance.now();
  p.child.kill('SIGTERM');
  const exit = await within(60_000, 'exit', p.exited).catch(() => {
    p.child.kill('SIGKILL');
    return p.exited.then((e) => ({ ...e, killedAfter60s: true }));
  });
  const seconds = ((performance.now() - t0) / 1000).toFixed(2);
  clearInterval(trickle);
  s.destroy();
  console.log(
    `shutdown with one ${kind === 'idle' ? 'idle socket (sends nothing)' : 'socket trickling its headers (1 byte / 0.5 s)'}: exited after ${seconds} s ${JSON.stringify(exit)}; budget used after 3 searches: ${budgetUsed(dataDir)}`,
  );
}

try {
  await flood();
  await shutdown('idle');
  await shutdown('trickle');
} finally {
  killStarted();
}
