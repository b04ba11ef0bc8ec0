import { describe, expect, it } from 'vitest';
import { createHostGate } from '../../src/fetch/host-gate.ts';

const settled = () => new Promise((resolve) => setImmediate(resolve));
const never = new AbortController().signal;

describe('host gate', () => {
  it('lets perHost requests to one host in at once; others wait; other hosts are not held up', async () => {
    const gate = createHostGate(2);
    const a1 = await gate.enter('a.test', never);
    const a2 = await gate.enter('a.test', never);
    let a3Entered = false;
    const a3 = gate.enter('a.test', never).then((leave) => ((a3Entered = true), leave));
    const b1 = await gate.enter('b.test', never); // another host: at once
    await settled();
    expect(a3Entered).toBe(false);
    expect(gate.active('a.test')).toBe(2);
    a1();
    await settled();
    expect(a3Entered).toBe(true);
    expect(gate.active('a.test')).toBe(2);
    a2();
    (await a3)();
    b1();
    expect(gate.active('a.test')).toBe(0);
    expect(gate.hosts).toBe(0); // idle hosts are forgotten: no growth with distinct names
  });

  it('a waiter whose deadline passes leaves with the deadline error and the host is forgotten', async () => {
    const gate = createHostGate(1);
    const leave = await gate.enter('slow.test', never);
    const deadline = new AbortController();
    const waiting = gate.enter('slow.test', deadline.signal);
    deadline.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    leave();
    expect(gate.hosts).toBe(0);
  });

  it('leaving twice frees one place', async () => {
    const gate = createHostGate(1);
    const leave = await gate.enter('x.test', never);
    const next = gate.enter('x.test', never);
    leave();
    leave();
    const afterNext = gate.enter('x.test', never);
    let third = false;
    void afterNext.then(() => (third = true));
    await settled();
    expect(third).toBe(false);
    (await next)();
    (await afterNext)();
    expect(gate.hosts).toBe(0);
  });
});
