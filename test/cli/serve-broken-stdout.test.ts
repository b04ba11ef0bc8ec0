import { afterEach, describe, expect, it } from 'vitest';
import {
  freePort,
  get,
  killStarted,
  scoutEnv,
  spawnScout,
  waitFor,
  waitHealthy,
  within,
  type ScoutProcess,
} from '../helpers/scout-process.ts';

// `npm start | head -5`: once the log reader is gone (or stops reading), Scout must go on
// serving and still close on SIGTERM. Each case runs the real binary with stdout piped to
// the test, which then plays the reader that died or stalled.

afterEach(() => killStarted());

/** Requests that each write a log line; every one must be answered within its deadline. */
async function traffic(port: number, count: number, path = '/healthz'): Promise<void> {
  for (let i = 0; i < count; i++) expect(await get(port, path)).toBeGreaterThan(0);
}

/** SIGTERM, then a clean exit (code 0): about a second, allowed 20 s (a busy machine, issue 24). */
async function terminates(p: ScoutProcess): Promise<void> {
  p.child.kill('SIGTERM');
  expect(await within(20_000, 'exit after SIGTERM', p.exited)).toEqual({ code: 0, signal: null });
}

const droppedNotices = (stderr: string) => stderr.split('\n').filter((l) => /stdout.*log lines are dropped/.test(l));

describe('scout serve with a broken stdout', () => {
  it('keeps serving and closes on SIGTERM when the log reader is gone before the first line', async () => {
    const port = await freePort();
    const p = spawnScout('node', scoutEnv(port));
    p.child.stdout!.destroy(); // like `| true`: every write to stdout gets EPIPE
    await waitHealthy(port);
    await traffic(port, 50);
    expect(await get(port, '/healthz')).toBe(200);
    await terminates(p);
    expect(droppedNotices(p.stderr())).toHaveLength(1);
    expect(p.stderr()).not.toContain('    at ');
  });

  it('keeps serving and closes on SIGTERM when the log reader exits after the first line (head -1)', async () => {
    const port = await freePort();
    const p = spawnScout('node', scoutEnv(port));
    p.child.stdout!.once('data', () => p.child.stdout!.destroy());
    await waitHealthy(port);
    await traffic(port, 50);
    expect(await get(port, '/healthz')).toBe(200);
    await terminates(p);
    expect(droppedNotices(p.stderr())).toHaveLength(1);
    expect(p.stderr()).not.toContain('    at ');
  });
});

describe('scout serve with a stdout nobody reads', () => {
  it('drops log lines beyond a bound instead of blocking, and still closes on SIGTERM', async () => {
    const port = await freePort();
    const p = spawnScout('node', scoutEnv(port));
    await waitFor(60_000, 'Scout listening', () => (p.stdout().includes('Scout listening') ? true : undefined));
    p.child.stdout!.pause(); // the pipe fills (64 KiB), then nothing more is read
    // About 8 KB of log per request (the path is logged): 250 of them overflow any pipe and the bound.
    await traffic(port, 250, `/${'x'.repeat(8000)}`);
    expect(await get(port, '/healthz')).toBe(200);
    await terminates(p);
    expect(droppedNotices(p.stderr())).toHaveLength(1);
  });
});
