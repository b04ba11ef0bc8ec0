import { describe, expect, it } from 'vitest';
import { forEachLimited } from '../../src/content/concurrency.ts';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('forEachLimited', () => {
  it('runs every item with no more than `limit` in flight', async () => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    await forEachLimited([...Array(11).keys()], 3, async (item) => {
      running += 1;
      peak = Math.max(peak, running);
      await tick();
      seen.push(item);
      running -= 1;
    });
    expect(peak).toBe(3);
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(11).keys()]);
  });

  it('starts nothing new once the signal aborts', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    await forEachLimited(
      [0, 1, 2, 3, 4, 5],
      2,
      async (item) => {
        started.push(item);
        if (item === 1) controller.abort();
        await tick();
      },
      controller.signal,
    );
    expect(started).toEqual([0, 1]);
  });

  it('handles an empty list', async () => {
    let calls = 0;
    await forEachLimited([], 4, async () => {
      calls += 1;
    });
    expect(calls).toBe(0);
  });
});
