import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { runScout, type CliRun } from '../helpers/cli.ts';
import { randomSchemaName } from '../helpers/postgres.ts';
import { freePort, scoutEnv, spawnScout, waitFor, within, type ScoutProcess } from '../helpers/scout-process.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { deleteKeys } from './redis/redis-test-env.ts';

/**
 * A real Scout process whose PostgreSQL and Redis sit behind TCP proxies the test controls,
 * on a throwaway schema and Redis prefix; the test itself talks to both directly (the CLI,
 * key inspection), so it sees the truth while the server sees the outage.
 */

export interface FaultTargets {
  databaseUrl: string;
  redisUrl: string;
}

/** The machine's PostgreSQL and Redis, or undefined (the suite skips) when either is unset. */
export function faultTargets(): FaultTargets | undefined {
  const databaseUrl = process.env.SCOUT_TEST_DATABASE_URL;
  const redisUrl = process.env.SCOUT_TEST_REDIS_URL;
  return databaseUrl && redisUrl ? { databaseUrl, redisUrl } : undefined;
}

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** `T` is the body the test expects: the JSON is parsed, not checked (text stays text). */
export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CreatedKey {
  id: string;
  key: string;
}

export interface FaultRig {
  schema: string;
  prefix: string;
  port: number;
  pgProxy: TcpProxy;
  redisProxy: TcpProxy;
  /** A direct connection to the real Redis (never through the proxy). */
  redis: Redis;
  server: ScoutProcess;
  /** `scout …` in-process against the real database (never through the proxy). */
  cli(argv: string[], stdin?: string): Promise<CliRun>;
  /** Every JSON log line the server printed so far. */
  logs(): LogLine[];
  /** How many log lines carry exactly `msg`. */
  count(msg: string): number;
  request<T = unknown>(method: string, path: string, init?: { key?: string; body?: unknown }): Promise<Answer<T>>;
  search<T = unknown>(key: string, query: string): Promise<Answer<T>>;
  close(): Promise<void>;
}

/** The CLI's env: the real database and Redis, this rig's schema and prefix. */
function cliEnvOf(
  t: FaultTargets,
  schema: string,
  prefix: string,
  extra: Record<string, string>,
): Record<string, string> {
  return {
    SCOUT_DATABASE_URL: t.databaseUrl,
    SCOUT_DATABASE_SCHEMA: schema,
    SCOUT_REDIS_URL: t.redisUrl,
    SCOUT_REDIS_PREFIX: prefix,
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
    ...extra,
  };
}

const hostPort = (url: string, defaultPort: number): [string, number] => {
  const u = new URL(url);
  return [u.hostname, Number(u.port || defaultPort)];
};

/** Migrates the schema through the CLI, then runs `prepare` (keys, campaigns) before the server starts. */
export async function startFaultRig(
  t: FaultTargets,
  o: { env?: Record<string, string>; prepare?: (cli: FaultRig['cli']) => Promise<void> } = {},
): Promise<FaultRig> {
  const schema = randomSchemaName();
  const prefix = `scout:t:${randomBytes(6).toString('hex')}:`;
  const cliEnv = cliEnvOf(t, schema, prefix, o.env ?? {});
  const cli = (argv: string[], stdin = '') => runScout(argv, cliEnv, stdin);
  const redis = new Redis(t.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: false });
  const opened: { pgProxy?: TcpProxy; redisProxy?: TcpProxy; server?: ScoutProcess } = {};

  const close = async (): Promise<void> => {
    if (opened.server) await stop(opened.server);
    await opened.pgProxy?.close();
    await opened.redisProxy?.close();
    const c = new pg.Client({ connectionString: t.databaseUrl });
    await c.connect();
    try {
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await c.end();
    }
    await deleteKeys(redis, prefix);
    await redis.quit();
  };

  try {
    const migrated = await cli(['db', 'migrate']);
    if (migrated.code !== 0) throw new Error(`scout db migrate failed (${migrated.code}): ${migrated.stderr}`);
    await o.prepare?.(cli);

    opened.pgProxy = await startTcpProxy(...hostPort(t.databaseUrl, 5432));
    opened.redisProxy = await startTcpProxy(...hostPort(t.redisUrl, 6379));
    const port = await freePort();
    const env = scoutEnv(port, {
      ...cliEnv,
      SCOUT_DATABASE_URL: opened.pgProxy.url(t.databaseUrl),
      SCOUT_REDIS_URL: opened.redisProxy.url(t.redisUrl),
      SCOUT_PUBLIC_URL: `http://127.0.0.1:${port}`,
      // One extraction worker at normal priority: on a busy machine, niced workers make the start slow.
      SCOUT_FETCH_WORKERS: '1',
      SCOUT_FETCH_WORKER_NICE: '0',
    });
    const server = spawnScout('node', env);
    opened.server = server;
    await startedOrExited(server, port);

    const logs = (): LogLine[] =>
      server
        .stdout()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as LogLine);

    const request = async <T = unknown>(
      method: string,
      path: string,
      init: { key?: string; body?: unknown } = {},
    ): Promise<Answer<T>> => {
      const headers: Record<string, string> = {};
      if (init.key) headers.authorization = `Bearer ${init.key}`;
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers,
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        redirect: 'manual',
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: (text.startsWith('{') ? JSON.parse(text) : text) as T };
    };

    return {
      schema,
      prefix,
      port,
      pgProxy: opened.pgProxy,
      redisProxy: opened.redisProxy,
      redis,
      server,
      cli,
      logs,
      count: (msg) => logs().filter((l) => l.msg === msg).length,
      request,
      search: <T = unknown>(key: string, query: string) => request<T>('POST', '/v1/search', { key, body: { query } }),
      close,
    };
  } catch (e) {
    await close().catch(() => undefined);
    throw e;
  }
}

/** Waits for GET /healthz 200, failing at once (with its stderr) if the server exits first. */
async function startedOrExited(server: ScoutProcess, port: number): Promise<void> {
  let exited = false;
  void server.exited.then(() => (exited = true));
  const started = waitFor(90_000, `Scout on port ${port} to answer /healthz`, async () => {
    if (exited) throw new Error(`Scout exited during start: ${server.stderr()}\n${server.stdout()}`);
    const status = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.status,
      () => 0,
    );
    return status === 200 ? true : undefined;
  });
  await started.catch((e: Error) => {
    throw new Error(`${e.message}\nstdout:\n${server.stdout().slice(-4000)}\nstderr:\n${server.stderr().slice(-2000)}`);
  });
}

/** SIGTERM, then SIGKILL if it has not ended within 20 s: only the process this rig started. */
async function stop(server: ScoutProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  try {
    await within(20_000, 'Scout to exit after SIGTERM', server.exited);
  } catch {
    server.child.kill('SIGKILL');
    await within(20_000, 'Scout to exit after SIGKILL', server.exited);
  }
}

/** `scout keys create --json` against the real database: the server has never seen the key. */
export async function createKey(cli: FaultRig['cli'], name: string): Promise<CreatedKey> {
  const r = await cli(['keys', 'create', '--name', name, '--json']);
  if (r.code !== 0) throw new Error(`scout keys create failed (${r.code}): ${r.stderr}`);
  const { id, key } = JSON.parse(r.stdout) as CreatedKey;
  return { id, key };
}

/** The sponsored entries of a search answer. */
export const sponsoredOf = (a: Answer): { rec_id: string; url: string }[] => {
  // Not a search answer (an error, or text): none. A sponsored result always has its rec_id.
  const results = (a.body as { results?: { type: string; rec_id: string; url: string }[] } | undefined)?.results;
  return (results ?? []).filter((r) => r.type === 'sponsored');
};

/** Holds an outage for `ms` (the scenario's duration, not an assertion). */
export const hold = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
