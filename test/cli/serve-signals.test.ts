import { afterEach, describe, expect, it } from 'vitest';
import {
  accepts,
  freePort,
  killStarted,
  scoutEnv,
  spawnScout,
  track,
  waitFor,
  within,
  type ScoutProcess,
} from '../helpers/scout-process.ts';
import { budgetUsed, firstKey, searchOk } from '../helpers/served-scout.ts';

// What a container runtime or process manager does: start `npm start`, later signal the pid
// it started (npm's). The server below npm must get the signal and close gracefully: it
// stops listening and returns the unspent budget lease (a killed or orphaned server leaves
// up to 64 leased units counted as used).

afterEach(() => killStarted());

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
    await waitFor(60_000, 'Scout listening', () => (p.stdout().includes('Scout listening') ? true : undefined));
    track(p); // the server below npm, killed in afterEach should it be orphaned
    // stdout is a pipe, not a terminal: the first key is in the data folder, not the log.
    const key = firstKey(env.SCOUT_DATA_DIR);
    // The first search leases 1 unit, the second a block of 64: 65 counted until the close returns 63.
    await searchOk(port, key, 'first', 5000);
    await searchOk(port, key, 'second', 5000);
    expect(budgetUsed(env.SCOUT_DATA_DIR)).toBeGreaterThan(2);

    stop(p);
    expect(await within(30_000, 'npm to exit', p.exited)).toEqual({ code: 0, signal: null });
    await waitFor(10_000, `port ${port} to stop accepting`, async () => ((await accepts(port)) ? undefined : true));
    expect(budgetUsed(env.SCOUT_DATA_DIR)).toBe(2);
  });
});
