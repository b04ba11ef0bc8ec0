import { describe, expect, it } from 'vitest';
import { createSlots, type Release } from '../../src/fetch/slots.ts';

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('slots', () => {
  it('grants up to capacity at once, then queues in order, then refuses', async () => {
    const slots = createSlots(2, 2);
    const a = await slots.acquire()!;
    const b = await slots.acquire()!;
    const order: string[] = [];
    const c = slots.acquire()!.then((r) => (order.push('c'), r));
    const d = slots.acquire()!.then((r) => (order.push('d'), r));
    expect(slots.acquire()).toBeUndefined(); // line full
    expect([slots.active, slots.queued]).toEqual([2, 2]);
    a();
    await settled();
    expect(order).toEqual(['c']);
    b();
    await settled();
    expect(order).toEqual(['c', 'd']);
    (await c)();
    (await d)();
    expect([slots.active, slots.queued]).toEqual([0, 0]);
  });

  it('hands a freed slot to the line, not to a newcomer', async () => {
    const slots = createSlots(1, 1);
    const a = await slots.acquire()!;
    const queued = slots.acquire()!;
    a();
    // The slot went to the waiter: a newcomer has to wait in line behind it.
    expect([slots.active, slots.queued]).toEqual([1, 0]);
    const newcomer = slots.acquire()!;
    expect(slots.queued).toBe(1);
    (await queued)();
    (await newcomer)();
    expect([slots.active, slots.queued]).toEqual([0, 0]);
  });

  it('a release called twice frees one slot', async () => {
    const slots = createSlots(1, 0);
    const a = await slots.acquire()!;
    a();
    a();
    expect(slots.active).toBe(0);
    const b = await slots.acquire()!;
    expect(slots.active).toBe(1);
    b();
  });

  it('an aborted waiter leaves the line with the signal reason and frees its place', async () => {
    const slots = createSlots(1, 1);
    const a = await slots.acquire()!;
    const controller = new AbortController();
    const waiting = slots.acquire(controller.signal)!;
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    expect(slots.queued).toBe(0);
    const next = slots.acquire()!; // the place in line is free again
    a();
    (await next)();
    expect([slots.active, slots.queued]).toEqual([0, 0]);
  });

  it('refuses an already aborted signal without taking a slot', async () => {
    const slots = createSlots(1, 1);
    await expect(slots.acquire(AbortSignal.abort(new Error('late')))!).rejects.toThrow('late');
    expect(slots.active).toBe(0);
  });

  it('with many holders and random releases, never more than capacity and back to 0', async () => {
    const slots = createSlots(3, 1000);
    let peak = 0;
    const held: Release[] = [];
    const all = Array.from({ length: 200 }, () =>
      slots.acquire()!.then((release) => {
        peak = Math.max(peak, slots.active);
        held.push(release);
      }),
    );
    while (held.length > 0 || slots.queued > 0) {
      await settled();
      held.splice(Math.floor(Math.random() * held.length), 1)[0]?.();
    }
    await Promise.all(all);
    expect(peak).toBe(3);
    expect([slots.active, slots.queued]).toEqual([0, 0]);
  });
});
