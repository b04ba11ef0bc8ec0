import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createKeyUsageRecorder, type KeyUsageRecorder } from '../../src/keys/key-usage-recorder.ts';
import type { KeyStore, KeyUsage } from '../../src/store/ports.ts';
import { migrations } from '../../src/store/sqlite/migrations.ts';
import { migrate, openDatabase, type SqliteDatabase } from '../../src/store/sqlite/open-database.ts';
import { createSqliteKeyStore } from '../../src/store/sqlite/sqlite-key-store.ts';

const dirs: string[] = [];
const dbs: SqliteDatabase[] = [];
const recorders: KeyUsageRecorder[] = [];
afterEach(async () => {
  for (const r of recorders.splice(0)) await r.close();
});
afterAll(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A scout.db in a folder of its own, migrated, as the server opens it. */
const newFile = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'scout-usage-'));
  dirs.push(dir);
  return join(dir, 'scout.db');
};
/** A connection to `file` and its key store, with keys key_a and key_b. */
const openStore = async (file: string, withKeys = true): Promise<KeyStore> => {
  const db = openDatabase(file);
  migrate(db, migrations);
  dbs.push(db);
  const store = createSqliteKeyStore(db);
  if (withKeys) {
    await store.insert({ id: 'key_a', name: 'a', hash: 'hash_a', createdAt: '2026-01-01T00:00:00.000Z' });
    await store.insert({ id: 'key_b', name: 'b', hash: 'hash_b', createdAt: '2026-01-01T00:00:00.000Z' });
  }
  return store;
};

/** A clock the test moves. */
const clock = (start = '2026-01-02T03:04:05.678Z') => {
  let t = Date.parse(start);
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
};

const recorder = (
  store: Pick<KeyStore, 'addUsage'>,
  options: Parameters<typeof createKeyUsageRecorder>[1] = {},
): KeyUsageRecorder => {
  // A long period unless the test is about the timer: flushes happen when the test says.
  const r = createKeyUsageRecorder(store, { flushMs: 60_000, ...options });
  recorders.push(r);
  return r;
};

const waitFor = async (check: () => Promise<boolean>, ms = 2000): Promise<void> => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not true within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('key usage recorder', () => {
  it('only counts in memory until a flush, which writes the counts, refusals and the last use', async () => {
    const store = await openStore(newFile());
    const c = clock();
    const r = recorder(store, { now: c.now });
    r.record('key_a', false);
    c.advance(1000);
    r.record('key_a', true);
    c.advance(-500); // a clock stepping back does not move the last use back
    r.record('key_a', false);
    r.record('key_b', true);
    expect(r.pending()).toBe(4);
    expect(await store.usage()).toEqual([]);
    await r.flush();
    expect(r.pending()).toBe(0);
    const written: KeyUsage[] = [
      { id: 'key_a', requests: 3, refusals: 1, lastUsedAt: '2026-01-02T03:04:06.678Z' },
      { id: 'key_b', requests: 1, refusals: 1, lastUsedAt: '2026-01-02T03:04:06.178Z' },
    ];
    expect(await store.usage()).toEqual(written);
    // Nothing new: a second flush writes nothing again.
    await r.flush();
    expect(await store.usage()).toEqual(written);
  });

  it('flushes on its own every flushMs', async () => {
    const store = await openStore(newFile());
    const r = recorder(store, { flushMs: 20 });
    r.record('key_a', false);
    await waitFor(async () => (await store.usage()).length === 1);
    expect(await store.usage()).toMatchObject([{ id: 'key_a', requests: 1, refusals: 0 }]);
    expect(r.pending()).toBe(0);
  });

  it('close writes what is left and stops the timer', async () => {
    const store = await openStore(newFile());
    const r = recorder(store, { flushMs: 10 });
    r.record('key_a', true);
    r.record('key_b', false);
    await r.close();
    expect(await store.usage()).toMatchObject([
      { id: 'key_a', requests: 1, refusals: 1 },
      { id: 'key_b', requests: 1, refusals: 0 },
    ]);
    r.record('key_a', false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(r.pending()).toBe(1);
    expect(await store.usage()).toMatchObject([
      { id: 'key_a', requests: 1 },
      { id: 'key_b', requests: 1 },
    ]);
  });

  it('keeps the usage of a failed write: the next flush writes it once, with what was recorded meanwhile', async () => {
    const store = await openStore(newFile());
    const calls: KeyUsage[][] = [];
    let failNext = true;
    // The real store, made to fail once, the way a lost connection fails a write.
    const flaky: Pick<KeyStore, 'addUsage'> = {
      async addUsage(deltas) {
        calls.push(deltas.map((d) => ({ ...d })));
        if (failNext) {
          failNext = false;
          throw new Error('store down');
        }
        return store.addUsage(deltas);
      },
    };
    const errors: unknown[] = [];
    const c = clock();
    const r = recorder(flaky, { now: c.now, onError: (e) => errors.push(e) });
    r.record('key_a', false);
    r.record('key_a', true);
    await r.flush(); // resolves: the failure goes to onError
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('store down');
    expect(r.pending()).toBe(2);
    expect(await store.usage()).toEqual([]);
    c.advance(1);
    r.record('key_a', false);
    await r.flush();
    expect(r.pending()).toBe(0);
    expect(await store.usage()).toEqual([
      { id: 'key_a', requests: 3, refusals: 1, lastUsedAt: '2026-01-02T03:04:05.679Z' },
    ]);
    await r.flush();
    expect(calls).toHaveLength(2); // the failed write and its one retry; the empty flush wrote nothing
    expect(await store.usage()).toEqual([
      { id: 'key_a', requests: 3, refusals: 1, lastUsedAt: '2026-01-02T03:04:05.679Z' },
    ]);
    expect(errors).toHaveLength(1);
  });

  it('never writes a delta twice when flushes overlap: a flush during a write waits, then writes only what is new', async () => {
    const store = await openStore(newFile());
    const calls: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The real store behind a slow first write.
    const slow: Pick<KeyStore, 'addUsage'> = {
      async addUsage(deltas) {
        calls.push(deltas.map((d) => `${d.id}:${d.requests}`));
        if (calls.length === 1) await gate;
        return store.addUsage(deltas);
      },
    };
    const r = recorder(slow);
    r.record('key_a', false);
    const first = r.flush();
    r.record('key_b', false);
    const second = r.flush();
    const third = r.flush();
    expect(r.pending()).toBe(2);
    release();
    await Promise.all([first, second, third]);
    expect(calls).toEqual([['key_a:1'], ['key_b:1']]);
    expect(await store.usage()).toMatchObject([
      { id: 'key_a', requests: 1 },
      { id: 'key_b', requests: 1 },
    ]);
    expect(r.pending()).toBe(0);
  });

  it('adds up two recorders on two connections to one file (two processes): each connection reads the sum', async () => {
    const file = newFile();
    const one = await openStore(file);
    const two = await openStore(file, false);
    const c1 = clock('2026-01-02T00:00:00.000Z');
    const c2 = clock('2026-01-03T00:00:00.000Z');
    const r1 = recorder(one, { now: c1.now });
    const r2 = recorder(two, { now: c2.now });
    for (let i = 0; i < 5; i++) r1.record('key_a', i === 0);
    for (let i = 0; i < 3; i++) r2.record('key_a', false);
    r2.record('key_b', true);
    await Promise.all([r1.flush(), r2.flush()]);
    r1.record('key_b', false);
    await r1.close();
    const sum: KeyUsage[] = [
      { id: 'key_a', requests: 8, refusals: 1, lastUsedAt: '2026-01-03T00:00:00.000Z' },
      { id: 'key_b', requests: 2, refusals: 1, lastUsedAt: '2026-01-03T00:00:00.000Z' },
    ];
    expect(await one.usage()).toEqual(sum);
    expect(await two.usage()).toEqual(sum);
  });

  it('leaves a revocation by another connection visible on the very next look-up after usage writes', async () => {
    const file = newFile();
    const server = await openStore(file);
    const cli = await openStore(file, false);
    const r = recorder(server);
    await cli.addUsage([{ id: 'key_a', requests: 1, refusals: 0, lastUsedAt: null }]); // another connection's usage write
    expect((await server.findByHash('hash_a'))?.revokedAt).toBeNull(); // now remembered
    r.record('key_a', false);
    await r.flush(); // a write of the server's own connection, with the key remembered
    expect((await server.findByHash('hash_a'))?.revokedAt).toBeNull();
    await cli.revoke('key_a', '2026-02-01T00:00:00.000Z');
    expect((await server.findByHash('hash_a'))?.revokedAt).toBe('2026-02-01T00:00:00.000Z');
    r.record('key_a', true);
    await r.flush();
    expect((await server.findByHash('hash_a'))?.revokedAt).toBe('2026-02-01T00:00:00.000Z');
    expect(await cli.usage()).toMatchObject([{ id: 'key_a', requests: 3, refusals: 1 }]);
  });

  it('refuses a flush period that is not a positive number of milliseconds', async () => {
    const store = await openStore(newFile(), false);
    expect(() => createKeyUsageRecorder(store, { flushMs: 0 })).toThrow(RangeError);
    expect(() => createKeyUsageRecorder(store, { flushMs: Number.NaN })).toThrow(RangeError);
  });
});
