import { describe, expect, it } from 'vitest';
import { defined } from '../helpers/defined.ts';
import { mergeInto, newSketch, observe, quantile } from '../../src/admin/latency-sketch.ts';

describe('latency sketch', () => {
  it('has no quantile before anything is observed', () => {
    expect(quantile(newSketch(), 0.5)).toBeNull();
  });

  it('reports each quantile within 25% above the true value', () => {
    const s = newSketch();
    const values = Array.from({ length: 1000 }, (_, i) => 0.5 + i * 0.7); // 0.5 .. 699.8 ms
    for (const v of values) observe(s, v);
    for (const q of [0.5, 0.95, 0.99]) {
      const truth = defined(values[Math.ceil(q * values.length) - 1], `the true ${q} quantile`);
      const got = quantile(s, q)!;
      expect(got).toBeGreaterThanOrEqual(truth);
      expect(got).toBeLessThanOrEqual(truth * 1.25 + 0.01);
    }
  });

  it('keeps values below the first bound and far above the last in the end buckets', () => {
    const s = newSketch();
    observe(s, 0);
    observe(s, -3);
    expect(quantile(s, 1)).toBe(0.25);
    observe(s, 10 * 60_000);
    expect(quantile(s, 1)).toBeGreaterThan(60_000);
  });

  it('merges counts', () => {
    const a = newSketch();
    const b = newSketch();
    observe(a, 1);
    for (let i = 0; i < 3; i++) observe(b, 100);
    mergeInto(a, b);
    expect(quantile(a, 0.25)).toBeLessThan(1.25);
    expect(quantile(a, 0.5)).toBeGreaterThanOrEqual(100);
  });
});
