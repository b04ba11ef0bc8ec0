import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  bodyLogOdds,
  type ChoiceModel,
  checkModel,
  choosesBody,
  shippedModel,
} from '../../../src/extract/html/content-choice.ts';
import { FEATURE_NAMES } from '../../../src/extract/html/page-features.ts';

/** Two trees over features 0 and 1: the first splits on feature 0 at 0.5, the second is one leaf. */
const model: ChoiceModel = {
  features: [...FEATURE_NAMES],
  bias: -0.5,
  threshold: 0.25,
  trees: [
    [
      [0, 0.5, 1, 2],
      [-1, -1],
      [1, 2, 3, 4],
      [-1, 0.5],
      [-1, 2],
    ],
    [[-1, 0.1]],
  ],
  trainedOn: 'test',
};

describe('the learned content choice', () => {
  it('walks each tree left below the threshold and right at or above it, and sums the leaves with the bias', () => {
    expect(bodyLogOdds(model, [0.2, 9])).toBeCloseTo(-0.5 - 1 + 0.1);
    expect(bodyLogOdds(model, [0.5, 1])).toBeCloseTo(-0.5 + 0.5 + 0.1);
    expect(bodyLogOdds(model, [0.9, 2])).toBeCloseTo(-0.5 + 2 + 0.1);
  });

  it("chooses the body only above the model's threshold", () => {
    expect(choosesBody(model, [0.9, 5])).toBe(true); // 1.6
    expect(choosesBody(model, [0.9, 1])).toBe(false); // 0.1, below 0.25
    expect(choosesBody({ ...model, threshold: 0 }, [0.9, 1])).toBe(true);
  });

  it('refuses a model trained on other features, naming the command that retrains it', () => {
    expect(() => checkModel({ ...model, features: ['body_chars', 'something_else'] })).toThrow(
      /npm run train:content-choice/,
    );
    expect(checkModel(model)).toBe(model);
  });

  it('ships a small model over the features the extractor computes', () => {
    const shipped = shippedModel();
    expect(shipped.features).toEqual([...FEATURE_NAMES]);
    expect(shipped.trees.length).toBeGreaterThan(0);
    expect(shipped.trainedOn).toMatch(/held-out quarter excluded/);
    const bytes = statSync(
      fileURLToPath(new URL('../../../src/extract/html/content-choice-model.json', import.meta.url)),
    ).size;
    expect(bytes).toBeLessThan(64 * 1024);
    // Every split indexes a feature and a node of its own tree.
    for (const tree of shipped.trees) {
      for (const node of tree) {
        if (node.length !== 4) continue;
        expect(node[0]).toBeLessThan(FEATURE_NAMES.length);
        expect(tree[node[2]]).toBeDefined();
        expect(tree[node[3]]).toBeDefined();
      }
    }
  });
});
