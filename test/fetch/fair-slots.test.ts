import { describe, expect, it } from 'vitest';
import { createFairSlots, PUSHED_OUT } from '../../src/fetch/fair-slots.ts';

const settled = () => new Promise((resolve) => setImmediate(resolve));

/** Acquires for `caller`, recording the order in which waiters are served. */
const taker =
  (slots: ReturnType<typeof createFairSlots>, order: string[]) =>
  (caller: string, label: string, signal?: AbortSignal) =>
    slots.acquire(caller, signal)!.then((release) => {
      order.push(label);
      return release;
    });

describe('fair slots', () => {
  it('a caller alone may take every slot, then waits first come, first served', async () => {
    const slots = createFairSlots(2, 10);
    const order: string[] = [];
    const take = taker(slots, order);
    const held = [await take('a', 'a1'), await take('a', 'a2')] as const;
    const waiting = [take('a', 'a3'), take('a', 'a4')];
    expect([slots.active, slots.queued]).toEqual([2, 2]);
    held[0]();
    held[1]();
    await settled();
    expect(order).toEqual(['a1', 'a2', 'a3', 'a4']);
    for (const w of waiting) (await w)();
    expect([slots.active, slots.queued]).toEqual([0, 0]);
  });

  it('a freed slot goes to the waiting caller that holds the fewest, ahead of busier callers who came first', async () => {
    const slots = createFairSlots(4, 100);
    const order: string[] = [];
    const take = taker(slots, order);
    const held = [await take('a', 'a1'), await take('a', 'a2'), await take('b', 'b1'), await take('b', 'b2')] as const;
    const waiting = [
      take('a', 'a3'),
      take('b', 'b3'),
      take('a', 'a4'),
      take('b', 'b4'),
      take('c', 'c1'),
      take('c', 'c2'),
    ];
    held[0](); // a now holds 1, b 2, c 0: c's first goes first
    await settled();
    expect(order.slice(4)).toEqual(['c1']);
    held[2](); // a 1, b 1, c 1: the earliest waiter among them, a3
    await settled();
    expect(order.slice(4)).toEqual(['c1', 'a3']);
    held[1](); // a 1, b 1, c 1: b3 came before c2
    await settled();
    expect(order.slice(4)).toEqual(['c1', 'a3', 'b3']);
    held[3](); // a 1, b 1, c 1 again: a4 came before c2 and b4
    await settled();
    expect(order.slice(4)).toEqual(['c1', 'a3', 'b3', 'a4']);
    for (const w of waiting.slice(0, 3)) (await w)();
    await settled();
    expect(order.slice(4)).toEqual(['c1', 'a3', 'b3', 'a4', 'b4', 'c2']); // each holds 1 when b4 and c2 are served: by arrival
    for (const w of waiting.slice(3)) (await w)();
    expect([slots.active, slots.queued]).toEqual([0, 0]);
  });

  it("in a full line, a newcomer takes the place of the latest waiter of the caller waiting most; that caller's own newcomer is refused", async () => {
    const slots = createFairSlots(1, 3);
    const order: string[] = [];
    const take = taker(slots, order);
    const held = await take('a', 'a1');
    const a2 = take('a', 'a2');
    const a3 = take('a', 'a3');
    const a4 = take('a', 'a4').catch((reason: unknown) => reason);
    expect(slots.acquire('a')).toBeUndefined(); // a already waits as many as anyone
    const b1 = take('b', 'b1');
    expect(await a4).toBe(PUSHED_OUT); // a's latest gave b1 its place
    expect([slots.active, slots.queued]).toEqual([1, 3]);
    const c1 = take('c', 'c1'); // a waits 2, b and c 0: a's latest (a3) goes
    await expect(a3).rejects.toBe(PUSHED_OUT);
    expect(slots.acquire('b')).toBeUndefined(); // every line is now 1 long: nobody waits more than b
    held(); // now nobody holds a slot: the earliest waiter, a2
    await settled();
    expect(order).toEqual(['a1', 'a2']);
    (await a2)();
    await settled();
    (await b1)();
    await settled();
    (await c1)();
    expect(order).toEqual(['a1', 'a2', 'b1', 'c1']);
    expect([slots.active, slots.queued]).toEqual([0, 0]);
  });

  it('a waiter whose signal aborts leaves the line; a refused or pushed-out caller leaves nothing behind', async () => {
    const slots = createFairSlots(1, 1);
    const order: string[] = [];
    const take = taker(slots, order);
    const held = await take('a', 'a1');
    const gone = new AbortController();
    const b1 = take('b', 'b1', gone.signal).catch((reason: unknown) => reason);
    gone.abort('client gone');
    expect(await b1).toBe('client gone');
    expect(slots.queued).toBe(0);
    const c1 = take('c', 'c1');
    held();
    (await c1)();
    expect([slots.active, slots.queued]).toEqual([0, 0]);
    expect(order).toEqual(['a1', 'c1']);
  });
});
