import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { defined } from '../helpers/defined.ts';
import { runScout, type CliRun } from '../helpers/cli.ts';
import { randomSchemaName } from '../helpers/postgres.ts';
import {
  freePort,
  scoutEnv,
  spawnScout,
  waitFor,
  waitHealthy,
  within,
  type ScoutProcess,
} from '../helpers/scout-process.ts';
import { openPostgres } from '../../src/store/postgres/open-postgres.ts';
import { openRedis } from '../../src/store/redis/open-redis.ts';
import { deleteKeys, testPrefix } from './redis/redis-test-env.ts';

/** The shared services (the suites skip when unset). */
export const DATABASE_URL = process.env.SCOUT_TEST_DATABASE_URL;
export const REDIS_URL = process.env.SCOUT_TEST_REDIS_URL;

export type StorageMode = 'postgres+redis' | 'postgres';

/** The public base every replica puts in click URLs: the same for all, as behind one balancer. */
export const PUBLIC_URL = 'http://scout.test';

export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** One HTTP call to a replica, bounded, with the body parsed when it is JSON. */
export async function call<T = unknown>(
  port: number,
  method: string,
  path: string,
  key?: string,
  body?: unknown,
): Promise<Reply<T>> {
  const headers: Record<string, string> = {};
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

export const search = <T = unknown>(port: number, key: string, body: Record<string, unknown>) =>
  call<T>(port, 'POST', '/v1/search', key, body);

export interface CreatedKey {
  id: string;
  key: string;
}

/** Three (or n) server processes on one PostgreSQL schema (and Redis prefix), plus the CLI env to administer them. */
export interface ReplicaGroup {
  mode: StorageMode;
  schema: string;
  prefix: string | undefined;
  ports: number[];
  processes: ScoutProcess[];
  /** The env the CLI runs with: the replicas' storage settings, its own data folder. */
  cliEnv: Record<string, string>;
  /** `scout <argv>` through the real CLI entry, with the group's env. */
  cli(argv: string[], stdin?: string): Promise<CliRun>;
  /** `scout keys create --json`, checked. */
  createKey(name: string): Promise<CreatedKey>;
  /** SIGTERM to every replica, then waits for each to exit (they write their event queues first). */
  stop(): Promise<void>;
}

/** Storage env shared by replicas and the CLI of one group. */
function storageEnv(mode: StorageMode, schema: string, prefix: string | undefined): Record<string, string> {
  return {
    SCOUT_DATABASE_URL: DATABASE_URL!,
    SCOUT_DATABASE_SCHEMA: schema,
    ...(mode === 'postgres+redis' ? { SCOUT_REDIS_URL: REDIS_URL!, SCOUT_REDIS_PREFIX: prefix! } : {}),
    SCOUT_PUBLIC_URL: PUBLIC_URL,
    SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
    SCOUT_STARTER_CORPUS: 'false',
    // One extraction thread per replica (default: one per CPU): six replicas start on two
    // cores, and one thread reads the few pages these tests fetch.
    SCOUT_FETCH_WORKERS: '1',
    // Nine replicas run at once (three groups): at the default pool of 10 they could hold
    // 9 x 11 connections under the bursts below, more than the shared PostgreSQL's 100 less
    // what other test files use (CI was refused with 53300). 3 + 1 each serves the bursts.
    SCOUT_DATABASE_POOL_SIZE: '3',
  };
}

/** Env without any storage setting the test runner itself may carry. */
export function withoutStorage(env: Record<string, string>): Record<string, string> {
  const out = { ...env };
  for (const name of ['SCOUT_DATABASE_URL', 'SCOUT_DATABASE_SCHEMA', 'SCOUT_REDIS_URL', 'SCOUT_REDIS_PREFIX'])
    delete out[name];
  return out;
}

/** The pino line `msg: "storage"` a replica logs at start, parsed. */
function storageLine(p: ScoutProcess): Record<string, unknown> | undefined {
  for (const line of p.stdout().split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const obj = JSON.parse(line) as Record<string, unknown>;
      if (obj.msg === 'storage') return obj;
    } catch {
      // a partial line: read again later
    }
  }
  return undefined;
}

/**
 * Starts `n` replicas with a fresh schema (and Redis prefix), `settings` added to every
 * replica's env and to the CLI's. Resolves once every replica answers /healthz and has logged
 * its storage mode; a replica that exits meanwhile fails the start with its stderr.
 */
export async function startReplicas(mode: StorageMode, settings: Record<string, string>, n = 3): Promise<ReplicaGroup> {
  const schema = randomSchemaName();
  const prefix = mode === 'postgres+redis' ? testPrefix() : undefined;
  const own = { schema, prefix, processes: [] as ScoutProcess[] };
  leftovers.push(own);
  const shared = { ...storageEnv(mode, schema, prefix), ...settings };
  const cliEnv = withoutStorage(scoutEnv(0, {}));
  Object.assign(cliEnv, shared);
  const ports: number[] = [];
  const processes = own.processes;
  for (let i = 0; i < n; i++) {
    const port = await freePort();
    ports.push(port);
    processes.push(spawnScout('node', { ...withoutStorage(scoutEnv(port)), ...shared }));
  }
  const group: ReplicaGroup = {
    mode,
    schema,
    prefix,
    ports,
    processes,
    cliEnv,
    cli: (argv, stdin = '') => runScout(argv, cliEnv, stdin),
    async createKey(name) {
      const r = await runScout(['keys', 'create', '--name', name, '--json'], cliEnv);
      expect(r, 'keys create --json').toMatchObject({ code: 0 });
      const created = JSON.parse(r.stdout) as CreatedKey;
      expect(created.key).toMatch(/^scout_/);
      return created;
    },
    async stop() {
      await Promise.all(
        processes.map(async (p) => {
          if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
          await within(15_000, `replica ${p.child.pid} to exit after SIGTERM`, p.exited);
        }),
      );
    },
  };
  await Promise.all(
    processes.map(async (p, i) => {
      const failed = p.exited.then((e) => {
        throw new Error(
          `replica on port ${ports[i]} exited (${JSON.stringify(e)}) during start: ${p.stderr().slice(0, 2000)}`,
        );
      });
      failed.catch(() => undefined);
      // Nine replicas start at once (replicas.test.ts): a few seconds each on a quiet 2-core
      // machine, over a minute with both cores busy; the bound is for a hung start only.
      await Promise.race([waitHealthy(defined(ports[i], `port ${i}`), 180_000), failed]);
      const line = await Promise.race([
        waitFor(60_000, `the storage log line of port ${ports[i]}`, () => storageLine(p)),
        failed,
      ]);
      expect(line.mode, `storage mode of replica ${i}`).toBe(mode);
    }),
  );
  return group;
}

/** What every start left behind, even a start that failed half-way: cleaned by cleanUp(). */
const leftovers: { schema: string; prefix: string | undefined; processes: ScoutProcess[] }[] = [];

/**
 * Kills every replica started here (SIGKILL: state is in the shared stores, nothing to
 * drain), waits for each to exit, then drops their schemas and Redis keys.
 */
export async function cleanUp(): Promise<void> {
  const all = leftovers.splice(0);
  const exits = await Promise.allSettled(
    all.flatMap((g) =>
      g.processes.map(async (p) => {
        if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
        await within(20_000, `replica ${p.child.pid} to exit`, p.exited);
      }),
    ),
  );
  // Every schema is dropped even when something failed; the first failure is reported after.
  const drops = await Promise.allSettled(all.map((g) => dropStorage(g)));
  const failed = [...exits, ...drops].find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Drops the group's schema and deletes its Redis keys (processes must be gone first). */
async function dropStorage(group: { schema: string; prefix: string | undefined }): Promise<void> {
  const pool = openPostgres({ url: DATABASE_URL!, schema: group.schema, max: 1 });
  try {
    await pool.query(`DROP SCHEMA IF EXISTS "${group.schema}" CASCADE`);
  } finally {
    await pool.end();
  }
  if (group.prefix !== undefined) {
    const redis = await openRedis({ url: REDIS_URL!, prefix: group.prefix });
    try {
      await deleteKeys(redis.client, group.prefix);
    } finally {
      await redis.close();
    }
  }
}

/** A word no other document or campaign holds (letters only: a single index term). */
export const uniqueWord = (stem: string): string =>
  stem + [...randomBytes(8)].map((b) => String.fromCharCode(97 + (b % 26))).join('');

/** Like waitFor, with a chosen interval: polls that search take from a 20-a-minute bucket. */
export async function poll<T>(
  ms: number,
  every: number,
  what: string,
  check: () => Promise<T | undefined>,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

export interface ReportRow {
  id: string;
  impressions: number;
  agent_reads: number;
  clicks: number;
  spend_micros: number;
  remaining_micros: number;
}

/** The campaign's row of `scout campaigns report --json`. */
export async function reportRow(group: ReplicaGroup, id: string): Promise<ReportRow> {
  const r = await group.cli(['campaigns', 'report', '--json']);
  expect(r, 'campaigns report --json').toMatchObject({ code: 0 });
  const row = (JSON.parse(r.stdout) as { campaigns: ReportRow[] }).campaigns.find((c) => c.id === id);
  if (row === undefined) throw new Error(`campaign ${id} is missing from the report: ${r.stdout}`);
  return row;
}
