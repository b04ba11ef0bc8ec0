import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { budgetPeriod } from '../../src/search/search-budget.ts';
import { accepts, freePort, killStarted, scoutEnv, spawnScout, track, waitFor, within, type ScoutProcess } from '../helpers/scout-process.ts';

// What a container runtime or process manager does: start `npm start`, later signal the pid
// it started (npm's). The server below npm must get the signal and close gracefully: it
// stops listening and returns the unspent budget lease (a killed or orphaned server leaves
// up to 64 leased units counted as used).

afterEach(() => killStarted());

async function search(port: number, key: string, query: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
    signal: AbortSignal.timeout(5000),
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

/** Units counted as used this month in the data folder's store. */
function budgetUsed(dataDir: string): number {
  const db = new Database(join(dataDir, 'scout.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT used FROM search_budget WHERE period = ?').get(budgetPeriod(new Date())) as { used: number } | undefined;
    return row?.used ?? 0;
  } finally {
    db.close();
  }
}

type Stop = (p: ScoutProcess) => void;
const stops: [string, Stop][] = [
  ['SIGTERM to the npm process', (p) => p.child.kill('SIGTERM')],
  ['SIGINT to the npm process', (p) => p.child.kill('SIGINT')],
  // Ctrl-C in a terminal: the whole foreground group gets SIGINT, and npm forwards another
  // to the server a moment later; the repeat must not cut the graceful close short.
  ['SIGINT to the process group (Ctrl-C)', (p) => process.kill(-p.child.pid!, 'SIGINT')],
];

describe.each(stops)('npm start, then %s', (_name, stop) => {
  it('closes the server gracefully: npm exits 0, the port closes, the budget lease is returned', async () => {
    const port = await freePort();
    const env = scoutEnv(port);
    const p = spawnScout('npm', env, { ownGroup: true });
    await waitFor(30_000, 'Scout listening', () => (p.stdout().includes('Scout listening') ? true : undefined));
    track(p); // the server below npm, killed in afterEach should it be orphaned
    // stdout is a pipe, not a terminal: the first key is in the data folder, not the log.
    const key = /(scout_[0-9A-Za-z]{38})/.exec(readFileSync(join(env.SCOUT_DATA_DIR, 'first-api-key.txt'), 'utf8'))?.[1];
    expect(key).toBeDefined();
    // The first search leases 1 unit, the second a block of 64: 65 counted until the close returns 63.
    await search(port, key!, 'first');
    await search(port, key!, 'second');
    expect(budgetUsed(env.SCOUT_DATA_DIR)).toBeGreaterThan(2);

    stop(p);
    expect(await within(15_000, 'npm to exit', p.exited)).toEqual({ code: 0, signal: null });
    await waitFor(10_000, `port ${port} to stop accepting`, async () => ((await accepts(port)) ? undefined : true));
    expect(budgetUsed(env.SCOUT_DATA_DIR)).toBe(2);
  });
});
