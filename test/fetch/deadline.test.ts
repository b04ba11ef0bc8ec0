import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.ts';
import { startDeadline } from '../../src/fetch/deadline.ts';

describe('deadline', () => {
  it('aborts its signal with a timeout DomainError and rejects raced work', async () => {
    const d = startDeadline(20, 'too slow');
    const never = new Promise<never>(() => {});
    await expect(d.race(never)).rejects.toMatchObject({ kind: 'timeout', message: 'too slow' });
    expect(d.signal.aborted).toBe(true);
    expect(d.signal.reason).toBeInstanceOf(DomainError);
  });

  it('lets work that finishes in time through, and clear() stops the timer', async () => {
    const d = startDeadline(10_000, 'too slow');
    await expect(d.race(Promise.resolve(42))).resolves.toBe(42);
    expect(() => d.check()).not.toThrow();
    d.clear();
    expect(d.signal.aborted).toBe(false);
  });

  it('check() catches an overrun before the timer fires', () => {
    const d = startDeadline(1, 'too slow');
    const until = performance.now() + 5;
    while (performance.now() < until) {
      // synchronous work that outlives the deadline: the timer cannot fire meanwhile
    }
    expect(() => d.check()).toThrow('too slow');
    d.clear();
  });
});
