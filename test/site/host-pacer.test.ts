import { describe, expect, it } from 'vitest';
import { createHostPacer } from '../../src/site/host-pacer.ts';
import { defined } from '../helpers/defined.ts';

/** A fake monotonic clock: sleeping advances it, tasks advance it by their duration. */
function fakeTime() {
  const clock = { now: 0 };
  return {
    clock,
    now: () => clock.now,
    sleep: async (ms: number) => {
      clock.now += ms;
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

interface Span {
  host: string;
  id: number;
  start: number;
  end: number;
}

function recorder(time: ReturnType<typeof fakeTime>) {
  const spans: Span[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const perHost = new Map<string, number>();
  let maxPerHost = 0;
  const task =
    (host: string, id: number, ms = 10) =>
    async () => {
      const span = { host, id, start: time.clock.now, end: Number.NaN };
      spans.push(span);
      inFlight += 1;
      perHost.set(host, (perHost.get(host) ?? 0) + 1);
      maxInFlight = Math.max(maxInFlight, inFlight);
      maxPerHost = Math.max(maxPerHost, perHost.get(host) ?? 0);
      await new Promise((resolve) => setImmediate(resolve));
      time.clock.now += ms;
      span.end = time.clock.now;
      inFlight -= 1;
      perHost.set(host, (perHost.get(host) ?? 1) - 1);
      return id;
    };
  return { spans, task, max: () => ({ inFlight: maxInFlight, perHost: maxPerHost }) };
}

describe('createHostPacer', () => {
  it('runs one task per host at a time, in order, each a delay after the previous ended', async () => {
    const time = fakeTime();
    const pacer = createHostPacer({ maxInFlight: 2, delayMs: 100, now: time.now, sleep: time.sleep });
    const rec = recorder(time);
    const ids = await Promise.all([1, 2, 3].map((id) => pacer.run('a.test', rec.task('a.test', id))));
    expect(ids).toEqual([1, 2, 3]);
    expect(rec.spans.map((s) => s.id)).toEqual([1, 2, 3]);
    for (let i = 1; i < rec.spans.length; i += 1)
      expect(defined(rec.spans[i], `span ${i}`).start).toBeGreaterThanOrEqual(
        defined(rec.spans[i - 1], 'the span before').end + 100,
      );
    expect(rec.max().perHost).toBe(1);
  });

  it('never runs more than maxInFlight tasks at once across hosts', async () => {
    const time = fakeTime();
    const pacer = createHostPacer({ maxInFlight: 2, delayMs: 0, now: time.now, sleep: time.sleep });
    const rec = recorder(time);
    await Promise.all(['a', 'b', 'c', 'd', 'a', 'b'].map((h, i) => pacer.run(h, rec.task(h, i))));
    expect(rec.max()).toEqual({ inFlight: 2, perHost: 1 });
    expect(rec.spans).toHaveLength(6);
  });

  it('reports a host busy while its tasks wait or run', async () => {
    const time = fakeTime();
    const pacer = createHostPacer({ maxInFlight: 2, delayMs: 50, now: time.now, sleep: time.sleep });
    const rec = recorder(time);
    const running = pacer.run('a.test', rec.task('a.test', 1));
    expect(pacer.busy('a.test')).toBe(true);
    expect(pacer.busy('b.test')).toBe(false);
    await running;
    expect(pacer.busy('a.test')).toBe(false);
  });

  it('keeps pacing after a task fails', async () => {
    const time = fakeTime();
    const pacer = createHostPacer({ maxInFlight: 2, delayMs: 30, now: time.now, sleep: time.sleep });
    const failing = pacer.run('a.test', async () => {
      time.clock.now += 5;
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    const startedAt = await pacer.run('a.test', async () => time.clock.now);
    expect(startedAt).toBeGreaterThanOrEqual(35);
    expect(pacer.busy('a.test')).toBe(false);
  });

  it('slowDown raises a host delay but never lowers it', async () => {
    const time = fakeTime();
    const pacer = createHostPacer({ maxInFlight: 2, delayMs: 20, now: time.now, sleep: time.sleep });
    pacer.slowDown('a.test', 5);
    await pacer.run('a.test', async () => undefined);
    const t1 = time.clock.now;
    expect(await pacer.run('a.test', async () => time.clock.now)).toBeGreaterThanOrEqual(t1 + 20);
    pacer.slowDown('a.test', 500);
    const t2 = time.clock.now;
    expect(await pacer.run('a.test', async () => time.clock.now)).toBeGreaterThanOrEqual(t2 + 500);
    // Other hosts keep the crawl's own delay.
    await pacer.run('b.test', async () => undefined);
    const t3 = time.clock.now;
    expect(await pacer.run('b.test', async () => time.clock.now)).toBeLessThan(t3 + 500);
  });
});
