import { describe, expect, it } from 'vitest';
import { fitGbdt, predict, type Sample } from '../../bench/gbdt.ts';

describe('fitGbdt', () => {
  it('learns a choice that depends on two features together', () => {
    // Positive when both features are high: no single split separates it.
    const samples: Sample[] = [];
    for (let a = 0; a < 10; a += 1) {
      for (let b = 0; b < 10; b += 1)
        samples.push({ x: [a, b, (a * 7 + b * 3) % 5], y: a >= 5 && b >= 5 ? 1 : 0, w: 1 });
    }
    const model = fitGbdt(samples, { trees: 30, depth: 2 });
    const wrong = samples.filter((s) => predict(model, s.x) > 0 !== (s.y === 1));
    expect(wrong).toHaveLength(0);
  });

  it('weighs samples: where two disagree on the same features, the heavier wins', () => {
    const samples: Sample[] = [
      ...Array.from({ length: 5 }, () => ({ x: [1], y: 1 as const, w: 0.9 })),
      ...Array.from({ length: 5 }, () => ({ x: [1], y: 0 as const, w: 0.1 })),
      ...Array.from({ length: 5 }, () => ({ x: [0], y: 1 as const, w: 0.1 })),
      ...Array.from({ length: 5 }, () => ({ x: [0], y: 0 as const, w: 0.9 })),
    ];
    const model = fitGbdt(samples, { trees: 20, depth: 1, minChildWeight: 0 });
    expect(predict(model, [1])).toBeGreaterThan(0);
    expect(predict(model, [0])).toBeLessThan(0);
  });

  it('is deterministic: the same samples give the same trees', () => {
    const samples: Sample[] = Array.from({ length: 40 }, (_, i) => ({
      x: [i % 7, i % 3],
      y: (i % 7 > 3 ? 1 : 0) as 0 | 1,
      w: 1 + (i % 2),
    }));
    expect(fitGbdt(samples)).toEqual(fitGbdt(samples));
  });
});
