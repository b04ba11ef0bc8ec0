/**
 * npm run bench:replicas [-- --docs 10000 --seconds 3 --rounds 5 --connections 10 --batch 500 --new-keys 50 --settle 10500]
 *
 * Issue 11: "one replica on PostgreSQL + Redis against embedded mode, POST /v1/search on
 * the 10k-document index. Goal: >= 85% of embedded requests/s, p99 added <= 1 ms; also
 * prints Redis and PostgreSQL round trips per search (goal: <= 1 each on the hot path, 0
 * for a cached key)".
 *
 * Two real Scouts in this process, built as load-kit's benchScout builds one (every stage,
 * auth, rate limit at 1M/min, budget, caches off, starter corpus off), log level warn:
 *   A  embedded: SQLite in a temporary SCOUT_DATA_DIR;
 *   B  one replica: SCOUT_DATABASE_URL (BENCH_DATABASE_URL, default the local `test`
 *      database) in a throwaway schema scout_b_<hex>, SCOUT_REDIS_URL (BENCH_REDIS_URL,
 *      default the local Redis) under a throwaway prefix scout:b:<hex>:.
 * Both get the same synthetic corpus (make-corpus.ts, seed 42) through `scout index import`
 * run as a child process with each one's settings, the way an operator fills either. The
 * load generator runs in this process, as in bench/search.ts (both modes pay for it alike);
 * B also shares the two cores with the PostgreSQL and Redis servers, which is part of what
 * it costs. Only one Scout is under load at a time; rounds alternate A, B and the ratio is
 * the median of the rounds' ratios (this machine's speed drifts within a minute).
 *
 * Round trips are then counted on B's servers over batches of sequential searches, with
 * the background of an idle window of the same length subtracted (B's index follower reads
 * PostgreSQL every 250 ms; other clients of the shared servers add noise): see roundTrips().
 * Beside the servers' counters, the requests this process's pg and ioredis clients sent are
 * counted by name (exact, no flush delay: Redis counts a Lua script's inner commands too,
 * and PostgreSQL publishes a backend's counts up to 10 s late).
 */
import type autocannon from 'autocannon';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createScout, type Scout } from '../src/compose.ts';
import { loadScoutConfig } from '../src/scout-settings.ts';
import { deleteKeys } from '../test/store/redis/redis-test-env.ts';
import { load, median, queries, querySequence, summary, type Run, printRuns } from './load-kit.ts';
import { writeCorpus } from './make-corpus.ts';
import { defined } from '../test/helpers/defined.ts';

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    batch: { type: 'string', default: '500' },
    'new-keys': { type: 'string', default: '50' },
    settle: { type: 'string', default: '10500' },
  },
});
const DOCS = Number(values.docs);
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);
const BATCH = Number(values.batch);
const NEW_KEYS = Number(values['new-keys']);
const SETTLE_MS = Number(values.settle);

// A bench, not Scout: it picks its servers from the environment like the tests do.
const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
const REPO = fileURLToPath(new URL('..', import.meta.url));

/** Settings both Scouts share: only storage differs. */
const COMMON = {
  SCOUT_STARTER_CORPUS: 'false',
  SCOUT_RATE_LIMIT_RPM: '1000000',
  SCOUT_MONTHLY_SEARCH_BUDGET: '1000000000',
  SCOUT_SEARCH_CACHE_TTL: '0',
  SCOUT_LOG_LEVEL: 'warn',
};

interface Instance {
  name: string;
  scout: Scout;
  key: string;
  url: string;
  /** Warnings and errors it logged (shown at the end when there are any). */
  logged: string[];
}

/** `scout index import <file>` in a child process with only `env` (plus PATH) as its environment. */
async function importCorpus(file: string, env: Record<string, string>): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['bin/scout.mjs', 'index', 'import', file], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? '', ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout.trim();
}

/** Polls `check` every 50 ms until it holds; throws after `ms`. */
async function until(what: string, ms: number, check: () => boolean): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** A Scout on `env`'s storage, its corpus already imported, ranked in memory, listening on loopback. */
async function start(name: string, env: Record<string, string>): Promise<Instance> {
  const logged: string[] = [];
  const sink = new Writable({
    write: (chunk, _e, cb) => {
      if (logged.length < 20) logged.push(String(chunk).trim());
      cb();
    },
  });
  const config = loadScoutConfig({ ...COMMON, ...env });
  const scout = await createScout(config, { docsDir: join(env.SCOUT_DATA_DIR!, 'none'), logStream: sink });
  scout.index.startRanker();
  await until(`${name} to rank ${DOCS} documents in memory`, 120_000, () => {
    const s = scout.index.rankerStatus();
    return s.state === 'ready' && s.documents === DOCS;
  });
  const key = (await scout.keys.create('bench')).key;
  await scout.app.listen({ port: 0, host: '127.0.0.1' });
  return { name, scout, key, url: `http://127.0.0.1:${(scout.app.server.address() as { port: number }).port}`, logged };
}

async function search(i: Instance, query: string, key = i.key): Promise<string[]> {
  const res = await fetch(`${i.url}/v1/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, max_results: 10 }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${i.name}: POST /v1/search answered ${res.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { results: { url: string }[] }).results.map((r) => r.url);
}

/** `n` searches of `qs`, one at a time. */
async function sequential(i: Instance, qs: readonly string[], n: number): Promise<void> {
  for (let k = 0; k < n; k++) await search(i, defined(qs[k % qs.length], 'a query'));
}

/**
 * Commands and queries this process's own Redis and PostgreSQL clients send (the probes
 * excluded), by command or statement name: a cross-check of the servers' counters that
 * has no flush delay and says what each round trip is.
 */
function countClientRoundTrips(exclude: readonly object[]): () => Map<string, number> {
  const counts = new Map<string, number>();
  const add = (label: string) => counts.set(label, (counts.get(label) ?? 0) + 1);
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (!exclude.includes(this)) {
      const q = args[0] as string | { name?: string; text?: string };
      const text = typeof q === 'string' ? q : (q.name ?? q.text ?? '?');
      add(`pg ${text.replace(/\s+/g, ' ').slice(0, 40)}`);
    }
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
  const send = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function (this: Redis, command, stream) {
    if (!exclude.includes(this)) add(`redis ${command.name}`);
    return send.call(this, command, stream);
  };
  return () => new Map(counts);
}

interface Probes {
  pg: pg.Client;
  redis: Redis;
  clientCounts: () => Map<string, number>;
}

/**
 * Committed transactions of the database so far. A backend publishes its counts at most
 * once a second, and an idle one up to 10 s later (PostgreSQL 15's PGSTAT_IDLE_INTERVAL),
 * so readings are taken SETTLE_MS after the work. The probe forces its own backend's flush
 * first; each reading thus adds exactly 2 of the probe's own transactions to the next one
 * (every statement is its own transaction, so no stats snapshot outlives it).
 */
async function xactCommits(c: pg.Client): Promise<number> {
  await c.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await c.query<{ n: string }>(
    'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number(defined(rows[0], 'a pg_stat_database row').n);
}

interface RedisReading {
  total: number;
  /** Calls by command name (INFO commandstats). */
  calls: Map<string, number>;
}

/**
 * Commands Redis has processed so far, in all and by name; each reading adds one INFO to
 * the next. Redis counts the commands a Lua script runs as well as the EVALSHA that ran it.
 */
async function redisCommands(r: Redis): Promise<RedisReading> {
  const text = String(await r.call('INFO', 'stats', 'commandstats'));
  const calls = new Map<string, number>();
  for (const m of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
    calls.set(defined(m[1], 'a command name'), Number(m[2]));
  return { total: Number(/total_commands_processed:(\d+)/.exec(text)![1]), calls };
}

/** after - before, by name, without zeros. */
function minus(after: Map<string, number>, before: Map<string, number>): Map<string, number> {
  return new Map([...after].map(([k, n]) => [k, n - (before.get(k) ?? 0)] as const).filter(([, n]) => n !== 0));
}

interface Window {
  redis: number;
  redisCalls: Map<string, number>;
  pg: number;
  client: Map<string, number>;
  ms: number;
}

/**
 * Runs `work` and counts: Redis commands around it, the client-side round trips around it,
 * and PostgreSQL transactions from `pgBefore` to SETTLE_MS after it (returned as `pgAfter`
 * for the next window). Probe overheads are taken off here.
 */
async function counted(
  p: Probes,
  pgBefore: number,
  work: () => Promise<unknown>,
): Promise<{ w: Window; pgAfter: number }> {
  const c0 = p.clientCounts();
  const r0 = await redisCommands(p.redis);
  const t0 = performance.now();
  await work();
  const ms = performance.now() - t0;
  const r1 = await redisCommands(p.redis);
  const c1 = p.clientCounts();
  await sleep(SETTLE_MS);
  const pgAfter = await xactCommits(p.pg);
  const redisCalls = minus(r1.calls, r0.calls);
  redisCalls.set('info', (redisCalls.get('info') ?? 0) - 1);
  return {
    w: { redis: r1.total - r0.total - 1, redisCalls, pg: pgAfter - pgBefore - 2, client: minus(c1, c0), ms },
    pgAfter,
  };
}

interface PerSearch {
  redis: number;
  redisCalls: Map<string, number>;
  pg: number;
  client: Map<string, number>;
  /** Round trips this process's clients sent: Redis, PostgreSQL. */
  sentRedis: number;
  sentPg: number;
}

/** (window - idle background over the same length) / searches. */
function perSearch(w: Window, idle: Window, n: number): PerSearch {
  // Redis is counted over the work alone, PostgreSQL over the work plus the settle wait.
  const redisScale = w.ms / idle.ms;
  const pgScale = (w.ms + SETTLE_MS) / (idle.ms + SETTLE_MS);
  const rate = (x: Map<string, number>, y: Map<string, number>): Map<string, number> => {
    const out = new Map<string, number>();
    for (const k of new Set([...x.keys(), ...y.keys()])) {
      const v = ((x.get(k) ?? 0) - (y.get(k) ?? 0) * redisScale) / n;
      if (Math.abs(v) >= 0.005) out.set(k, v);
    }
    return out;
  };
  const client = rate(w.client, idle.client);
  const sum = (kind: string): number => [...client].reduce((t, [k, v]) => (k.startsWith(kind) ? t + v : t), 0);
  return {
    redis: (w.redis - idle.redis * redisScale) / n,
    redisCalls: rate(w.redisCalls, idle.redisCalls),
    pg: (w.pg - idle.pg * pgScale) / n,
    client,
    sentRedis: sum('redis '),
    sentPg: sum('pg '),
  };
}

/**
 * Round trips per search on B: a batch of BATCH sequential searches with a key B already
 * remembers, an idle window as long as that batch, then the first search of each of
 * NEW_KEYS keys B has never looked up.
 */
async function roundTrips(
  b: Instance,
  p: Probes,
  qs: readonly string[],
): Promise<{ cached: PerSearch; fresh: PerSearch; idle: Window; cachedMs: number }> {
  // Created before the first reading, so their inserts are not counted; B forgets what it
  // remembered on its own writes, so the bench key is looked up again after them.
  const fresh: string[] = [];
  for (let i = 0; i < NEW_KEYS; i++) fresh.push((await b.scout.keys.create(`fresh-${i}`)).key);
  await sleep(200);
  for (let i = 0; i < 5; i++) await search(b, defined(qs[i], `query ${i}`));
  // Whatever the load rounds and the set-up left unpublished in backends' stats comes in now.
  await sleep(SETTLE_MS);
  let pgAt = await xactCommits(p.pg);
  const run = async (work: () => Promise<unknown>): Promise<Window> => {
    const r = await counted(p, pgAt, work);
    pgAt = r.pgAfter;
    return r.w;
  };
  const cached = await run(() => sequential(b, qs, BATCH));
  const idle = await run(() => sleep(cached.ms));
  const first = await run(async () => {
    for (let i = 0; i < fresh.length; i++) await search(b, defined(qs[i % qs.length], 'a query'), fresh[i]);
  });
  return { cached: perSearch(cached, idle, BATCH), fresh: perSearch(first, idle, NEW_KEYS), idle, cachedMs: cached.ms };
}

const f2 = (x: number): string => x.toFixed(2);
const mark = (ok: boolean): string => (ok ? 'met' : 'NOT met');
const breakdown = (m: Map<string, number>): string =>
  [...m]
    .sort((x, y) => y[1] - x[1])
    .map(([k, v]) => `${k} ${f2(v)}`)
    .join(', ') || 'none';

async function main(): Promise<void> {
  const hex = randomBytes(6).toString('hex');
  const schema = `scout_b_${hex}`;
  const prefix = `scout:b:${hex}:`;
  const root = mkdtempSync(join(tmpdir(), 'scout-bench-replicas-'));
  const envA = { SCOUT_DATA_DIR: join(root, 'a') };
  const envB = {
    SCOUT_DATA_DIR: join(root, 'b'),
    SCOUT_DATABASE_URL: DATABASE_URL,
    SCOUT_DATABASE_SCHEMA: schema,
    SCOUT_REDIS_URL: REDIS_URL,
    SCOUT_REDIS_PREFIX: prefix,
  };
  const probes: Probes = {
    pg: new pg.Client({ connectionString: DATABASE_URL }),
    redis: new Redis(REDIS_URL, { lazyConnect: true }),
    clientCounts: () => new Map(),
  };
  const started: Instance[] = [];
  let errors = 0;
  try {
    await Promise.all([probes.pg.connect(), probes.redis.connect()]);
    probes.clientCounts = countClientRoundTrips([probes.pg, probes.redis]);

    const t0 = performance.now();
    const corpus = join(root, 'corpus.jsonl');
    await writeCorpus(corpus, { docs: DOCS, seed: 42 });
    const [outA, outB] = await Promise.all([
      importCorpus(corpus, { ...COMMON, ...envA }),
      importCorpus(corpus, { ...COMMON, ...envB }),
    ]);
    console.log(`scout index import, A: ${outA}\nscout index import, B: ${outB}`);
    const a = await start('A embedded (SQLite)', envA);
    started.push(a);
    const b = await start('B replica (PostgreSQL + Redis)', envB);
    started.push(b);
    console.log(`both ranked ${DOCS} documents in memory, ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    // B really runs on its servers: its key is a row of its schema, and searching talks to both.
    const qs = queries(2000);
    let same = 0;
    const sent0 = probes.clientCounts();
    for (const q of qs.slice(0, 20)) if ((await search(a, q)).join() === (await search(b, q)).join()) same++;
    const sent = [...minus(probes.clientCounts(), sent0)];
    const sentBy = (kind: string): number => sent.reduce((t, [k, n]) => (k.startsWith(kind) ? t + n : t), 0);
    const keyRows = defined(
      (await probes.pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".api_keys`)).rows[0],
      'a count of key rows',
    ).n;
    console.log(
      `B: ${keyRows} key row(s) in PostgreSQL schema ${schema}; 20 searches on each sent ${sentBy('redis ')} Redis commands and ${sentBy('pg ')} PostgreSQL queries;` +
        ` same results as A on ${same}/20 probe queries`,
    );
    if (keyRows < 1 || sentBy('redis ') < 20 || sentBy('pg ') < 20) errors++;

    const optsA: autocannon.Options = { url: a.url, requests: querySequence('/v1/search', qs, a.key) };
    const optsB: autocannon.Options = { url: b.url, requests: querySequence('/v1/search', qs, b.key) };
    await load('warm-up', optsA, 2, CONNECTIONS);
    await load('warm-up', optsB, 2, CONNECTIONS);
    const runsA: Run[] = [];
    const runsB: Run[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const x = await load(a.name, optsA, SECONDS, CONNECTIONS);
      runsA.push(x);
      const y = await load(b.name, optsB, SECONDS, CONNECTIONS);
      runsB.push(y);
      console.log(
        `round ${r + 1}: A ${x.rps.toFixed(0)} req/s p99 ${x.p99} ms, B ${y.rps.toFixed(0)} req/s p99 ${y.p99} ms (${((100 * y.rps) / x.rps).toFixed(1)}%)`,
      );
    }

    console.log(
      `\n${DOCS} documents, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s, same process, same run (medians)`,
    );
    printRuns('mode', 34, [summary(runsA), summary(runsB)]);
    const ratio = median(runsB.map((y, i) => y.rps / defined(runsA[i], `A round ${i + 1}`).rps));
    const added = median(runsB.map((y, i) => y.p99 - defined(runsA[i], `A round ${i + 1}`).p99));
    console.log(
      `\nB / A requests/s: ${(ratio * 100).toFixed(1)}% (median of the rounds' ratios; goal >= 85%: ${mark(ratio >= 0.85)})`,
    );
    console.log(
      `p99 added by B at saturation: ${added >= 0 ? '+' : ''}${added.toFixed(1)} ms (median of the rounds' differences; B serves ${(ratio * 100).toFixed(0)}% of A's requests on the same 10 connections; autocannon reports whole milliseconds)`,
    );
    errors += [...runsA, ...runsB].reduce((n, r) => n + r.errors + r.non2xx, 0);

    // At saturation each mode's p99 is mostly the queue its own throughput builds, so the
    // latency B adds is also measured at one offered load both sustain: 70% of the slower
    // mode's saturated rate, alternating rounds again.
    const rate = Math.floor(0.7 * Math.min(summary(runsA).rps, summary(runsB).rps));
    const paced = (o: autocannon.Options): autocannon.Options => ({ ...o, overallRate: rate });
    const pacedA: Run[] = [];
    const pacedB: Run[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      pacedA.push(await load(a.name, paced(optsA), SECONDS, CONNECTIONS));
      pacedB.push(await load(b.name, paced(optsB), SECONDS, CONNECTIONS));
    }
    const [pa, pb] = [summary(pacedA), summary(pacedB)];
    const pacedAdded = median(pacedB.map((y, i) => y.p99 - defined(pacedA[i], `paced A round ${i + 1}`).p99));
    console.log(
      `at ${rate} req/s offered to each (70% of the slower mode's rate), ${ROUNDS} alternating rounds: ` +
        `A p50 ${pa.p50} ms p99 ${pa.p99} ms, B p50 ${pb.p50} ms p99 ${pb.p99} ms; ` +
        `p99 added by B: ${pacedAdded >= 0 ? '+' : ''}${pacedAdded.toFixed(1)} ms (goal <= +1 ms: ${mark(pacedAdded <= 1)})`,
    );
    errors += [...pacedA, ...pacedB].reduce((n, r) => n + r.errors + r.non2xx, 0);

    console.log(
      `\ncounting B's round trips (${BATCH} + ${NEW_KEYS} sequential searches, idle window, ${(SETTLE_MS / 1000).toFixed(1)} s settle each)...`,
    );
    const t1 = performance.now();
    await sequential(a, qs, BATCH);
    const seqA = (performance.now() - t1) / BATCH;
    const rt = await roundTrips(b, probes, qs);
    const seqB = rt.cachedMs / BATCH;
    console.log(
      `one request at a time (${BATCH} searches): A ${seqA.toFixed(2)} ms per search, B ${seqB.toFixed(2)} ms (+${(seqB - seqA).toFixed(2)} ms)`,
    );
    const s = (x: number, w: number) => f2(x).padStart(w);
    const settle = `${(SETTLE_MS / 1000).toFixed(1)} s`;
    // B's index follower alone commits 4 transactions a second; much more is other clients.
    const noisy = rt.idle.pg > 2 * ((4 * (rt.idle.ms + SETTLE_MS)) / 1000) + 10;
    console.log(`\nround trips per search on B, one request at a time        Redis              PostgreSQL`);
    console.log(`${''.padEnd(52)} sent  server cmds   sent  server xacts`);
    for (const [label, r, note] of [
      [
        `key already cached (hot path), ${BATCH} searches`,
        rt.cached,
        `goal <= 1 round trip each: ${mark(rt.cached.sentRedis <= 1.05 && rt.cached.sentPg <= 1.05)}`,
      ],
      [`first request with a new key, ${NEW_KEYS} keys`, rt.fresh, '(uncached key)'],
    ] as const) {
      console.log(
        `${label.padEnd(52)}${s(r.sentRedis, 5)}${s(r.redis, 13)}${s(r.sentPg, 7)}${s(r.pg, 13)}${noisy ? '?' : ' '}  ${note}`,
      );
    }
    console.log(
      `\nmethod (all per search: the batch's count minus an idle window of the same length, divided by the searches):`,
    );
    console.log(
      `- sent: requests this process's pg and ioredis clients sent (pg.Client#query, Redis#sendCommand; one round trip each; the probes' own excluded). By name:\n` +
        `    key cached: ${breakdown(rt.cached.client)}\n    new key:    ${breakdown(rt.fresh.client)}\n` +
        `    idle window (${(rt.idle.ms / 1000).toFixed(1)} s, in total): ${breakdown(rt.idle.client)}`,
    );
    console.log(
      `- Redis server cmds: delta of INFO stats total_commands_processed around the batch, minus the INFO call itself;` +
        ` Redis also counts the commands a Lua script runs (INFO commandstats, per search: ${breakdown(rt.cached.redisCalls)});` +
        ` idle window: ${rt.idle.redis} commands from other clients.`,
    );
    console.log(
      `- PostgreSQL server xacts: delta of pg_stat_database.xact_commit for the database, read ${settle} after the batch` +
        ` (an idle backend publishes its counts up to 10 s late), minus the probe's own 2 transactions per reading` +
        ` (SELECT pg_stat_force_next_flush(), then the SELECT of xact_commit); idle window (${((rt.idle.ms + SETTLE_MS) / 1000).toFixed(1)} s):` +
        ` ${rt.idle.pg} transactions (B's index follower, other clients of the database)` +
        (noisy
          ? `: other clients are busy on this database, so these columns (marked ?) are noise; "sent" is exact.`
          : '.'),
    );
  } finally {
    for (const i of started) {
      await i.scout.close().catch((e) => console.error(`${i.name} close:`, e));
      if (i.logged.length) console.log(`${i.name} logged ${i.logged.length} warning(s); first: ${i.logged[0]}`);
    }
    await probes.pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch((e) => console.error('drop schema:', e));
    await deleteKeys(probes.redis, prefix).catch((e) => console.error('delete Redis keys:', e));
    await probes.pg.end().catch(() => undefined);
    probes.redis.disconnect();
    rmSync(root, { recursive: true, force: true });
  }
  if (errors > 0) process.exitCode = 1;
}

await main();
