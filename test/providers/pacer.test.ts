import { describe, expect, it } from 'vitest';
import { Pacer, PacerRefusal, type PacerClock } from '../../src/providers/pacer.ts';

/** A clock that moves only when told to, firing due timers in order. */
function manualClock(): PacerClock & { advance(ms: number): Promise<void> } {
  let now = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimer(fn, ms) {
      const id = seq++;
      timers.set(id, { at: now + ms, fn });
      return { cancel: () => timers.delete(id) };
    },
    async advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
        // Let resolved acquisitions run their continuations before the next timer.
        await new Promise((r) => setImmediate(r));
      }
      now = until;
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe('Pacer', () => {
  it('starts calls at most perSecond a second, in arrival order, and answers every queued caller', async () => {
    const clock = manualClock();
    const pacer = new Pacer({ perSecond: 2, inFlight: 10 }, clock);
    const starts: { i: number; at: number }[] = [];
    const calls = Array.from({ length: 5 }, (_, i) =>
      pacer.acquire(10_000).then((done) => {
        starts.push({ i, at: clock.now() });
        done();
      }),
    );
    await clock.advance(0);
    expect(starts).toEqual([{ i: 0, at: 0 }]);
    expect(pacer.waiting).toBe(4);
    await clock.advance(5000);
    await Promise.all(calls);
    expect(starts).toEqual([
      { i: 0, at: 0 },
      { i: 1, at: 500 },
      { i: 2, at: 1000 },
      { i: 3, at: 1500 },
      { i: 4, at: 2000 },
    ]);
    expect(pacer.waiting).toBe(0);
  });

  it('keeps at most inFlight calls open; a call ending lets the next one start', async () => {
    const clock = manualClock();
    const pacer = new Pacer({ perSecond: 100, inFlight: 2 }, clock);
    const releases: (() => void)[] = [];
    const started: number[] = [];
    const calls = [0, 1, 2, 3].map((i) =>
      pacer.acquire(60_000).then((done) => {
        started.push(i);
        releases.push(done);
      }),
    );
    await clock.advance(1000);
    expect(started).toEqual([0, 1]);
    releases[0]?.();
    releases[0]?.(); // a second call of the same release changes nothing
    await clock.advance(1000);
    expect(started).toEqual([0, 1, 2]);
    releases[1]?.();
    await clock.advance(1000);
    await Promise.all(calls);
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it('refuses at once a caller whose turn would come after its time limit', async () => {
    const clock = manualClock();
    const pacer = new Pacer({ perSecond: 1, inFlight: 5 }, clock);
    const first = await pacer.acquire(1000);
    first();
    // The next turn is 1000 ms away: a caller allowed 500 ms is refused without waiting.
    await expect(pacer.acquire(500)).rejects.toSatisfy(
      (e: unknown) => e instanceof PacerRefusal && !e.aborted && /past the time limit/.test(e.message),
    );
    expect(pacer.waiting).toBe(0);
    // One allowed 1000 ms gets the turn.
    const second = pacer.acquire(1000);
    await clock.advance(1000);
    (await second)();
  });

  it('drops a waiter whose wait runs out while the calls ahead hold every slot', async () => {
    const clock = manualClock();
    const pacer = new Pacer({ perSecond: 100, inFlight: 1 }, clock);
    const holder = await pacer.acquire(1000);
    const waiter = pacer.acquire(300);
    let refused: unknown;
    waiter.catch((e) => (refused = e));
    await clock.advance(299);
    expect(refused).toBeUndefined();
    await clock.advance(1);
    expect(refused).toBeInstanceOf(PacerRefusal);
    expect(pacer.waiting).toBe(0);
    holder();
    // The slot is free again for the next caller.
    const next = pacer.acquire(1000);
    await clock.advance(10);
    (await next)();
  });

  it('removes a cancelled waiter from the queue (aborted, not refused)', async () => {
    const clock = manualClock();
    const pacer = new Pacer({ perSecond: 1, inFlight: 1 }, clock);
    const holder = await pacer.acquire(1000);
    const ac = new AbortController();
    const waiting = pacer.acquire(10_000, ac.signal);
    expect(pacer.waiting).toBe(1);
    ac.abort();
    await expect(waiting).rejects.toSatisfy((e: unknown) => e instanceof PacerRefusal && e.aborted);
    expect(pacer.waiting).toBe(0);
    holder();
    await expect(pacer.acquire(10_000, ac.signal)).rejects.toSatisfy(
      (e: unknown) => e instanceof PacerRefusal && e.aborted,
    );
  });

  it('refuses a pacing that could never let a call through', () => {
    expect(() => new Pacer({ perSecond: 0, inFlight: 1 })).toThrow(RangeError);
    expect(() => new Pacer({ perSecond: 1, inFlight: 0 })).toThrow(RangeError);
  });
});
