import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: where `npm start` and bin/scout.mjs run from. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A Scout started as a real process (`node bin/scout.mjs serve` or `npm start`). */
export interface ScoutProcess {
  child: ChildProcess;
  /** Everything read from stdout so far. */
  stdout(): string;
  stderr(): string;
  exited: Promise<Exit>;
}

const started = new Set<number>();

/** Settings for a Scout process; the data folder is always given, so tests may read it back. */
export type ScoutEnv = Record<string, string> & { SCOUT_DATA_DIR: string };

/** Env for a fast, isolated server: a temp data folder, no starter corpus, loopback only. */
export function scoutEnv(port: number, extra: Record<string, string> = {}): ScoutEnv {
  return {
    ...(process.env as Record<string, string>),
    SCOUT_DATA_DIR: mkdtempSync(join(tmpdir(), 'scout-proc-')),
    PORT: String(port),
    HOST: '127.0.0.1',
    SCOUT_STARTER_CORPUS: 'false',
    SCOUT_LOG_LEVEL: 'info',
    // One extraction worker (the default is one per CPU): each loads its code at start. At
    // normal priority: niced (the default), it gets a tenth of a core another process keeps busy.
    SCOUT_FETCH_WORKERS: '1',
    SCOUT_FETCH_WORKER_NICE: '0',
    ...extra,
  };
}

/**
 * Starts `node bin/scout.mjs serve` or `npm start`, stdout and stderr piped to the test;
 * the caller may stop reading stdout (a dead or stalled log reader).
 */
export function spawnScout(
  how: 'node' | 'npm',
  env: Record<string, string>,
  options: { ownGroup?: boolean } = {},
): ScoutProcess {
  const [cmd, args] = how === 'npm' ? ['npm', ['start']] : [process.execPath, ['bin/scout.mjs', 'serve']];
  // ownGroup: a process group of its own, like a terminal's foreground job (Ctrl-C signals all of it).
  const child = spawn(cmd, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.ownGroup ?? false,
  });
  started.add(child.pid!);
  let out = '';
  let err = '';
  child.stdout?.on('data', (c) => (out += c));
  child.stdout?.on('error', () => undefined); // the test may destroy its end on purpose
  child.stderr!.on('data', (c) => (err += c));
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Rejects when `promise` takes longer than `ms`: every wait in these tests is bounded. */
export function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Polls until `check` returns a value (not undefined), at most `ms`. */
export async function waitFor<T>(
  ms: number,
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A loopback port nobody listens on (free a moment ago). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether something accepts TCP connections on the loopback port. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

/**
 * GET with a deadline: a hung server fails the request instead of the whole test run. An
 * answer takes milliseconds; the default deadline is far above that, for the machine may be
 * busy (issue 24).
 */
export async function get(port: number, path: string, ms = 10_000): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(ms) });
  await res.arrayBuffer();
  return res.status;
}

/**
 * Waits until the server answers GET /healthz with 200: a start takes a second or two, several
 * with both cores busy. Refused connections fail at once, so each try may wait long.
 */
export function waitHealthy(port: number, ms = 60_000): Promise<true> {
  return waitFor(ms, `GET /healthz on port ${port}`, async () =>
    (await get(port, '/healthz', 10_000).catch(() => 0)) === 200 ? true : undefined,
  );
}

/** Pids below `pid` (Linux /proc), recorded so an orphaned server can still be killed. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The comm field may hold spaces and parentheses: the ppid is the second field after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/** Remembers the process tree below `p` for killStarted (call it once the server runs). */
export function track(p: ScoutProcess): number[] {
  const pids = descendants(p.child.pid!);
  for (const pid of pids) started.add(pid);
  return pids;
}

/** SIGKILLs every process these tests started that still runs a Scout or npm (afterEach). */
export function killStarted(): void {
  for (const pid of started) {
    started.delete(pid);
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue; // already gone
    }
    if (!/scout\.mjs|npm|sh\0-c/.test(cmdline)) continue; // the pid was reused by something else
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}
