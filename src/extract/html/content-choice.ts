import { readFileSync } from 'node:fs';
import { FEATURE_NAMES } from './page-features.ts';

/**
 * The learned choice between a page's two readings (content-candidates.ts): Readability's
 * article, or the whole pruned body. Pages that are not one article (listings, collections,
 * service and product pages) lose most of their content to an article pick, and the
 * hand-written gate between the two missed many of them. The model is a small ensemble of
 * gradient-boosted decision trees over general page features (page-features.ts), trained by
 * `npm run train:content-choice` on the development part of WCXB (seven page types) and of
 * news-article sets (which teach it what reading an article whole costs), held-out quarters
 * never read, and shipped as
 * content-choice-model.json beside this file: no network and no native code at run time,
 * a few hundred comparisons per page.
 */

/** A split `[feature, threshold, left, right]` (left when the feature is below the threshold) or a leaf `[-1, value]`. */
export type TreeNode = [number, number, number, number] | [-1, number];

export interface ChoiceModel {
  /** The feature names the trees index, in order: they must be page-features.ts's. */
  features: string[];
  /** Each tree's nodes, its root first. */
  trees: TreeNode[][];
  /** Starting log-odds of "the body reads better". */
  bias: number;
  /** The body is chosen when its log-odds are above this. */
  threshold: number;
  /** What it was trained on, for the record. */
  trainedOn: string;
}

/** The log-odds that the whole body is the better reading of a page with features `x`. */
export function bodyLogOdds(model: ChoiceModel, x: readonly number[]): number {
  let sum = model.bias;
  for (const tree of model.trees) {
    sum += treeValue(tree, x);
  }
  return sum;
}

/** Whether the whole body is the better reading of a page with features `x`. */
export const choosesBody = (model: ChoiceModel, x: readonly number[]): boolean =>
  bodyLogOdds(model, x) > model.threshold;

/** The leaf `x` reaches in one tree. */
export function treeValue(tree: readonly TreeNode[], x: readonly number[]): number {
  let node = tree[0];
  while (node !== undefined && node.length === 4) {
    const [feature, threshold, left, right] = node;
    node = tree[(x[feature] ?? 0) < threshold ? left : right];
  }
  return node?.[1] ?? 0;
}

/** The model file must index the features the extractor computes, in the same order. */
export function checkModel(model: ChoiceModel): ChoiceModel {
  const expected = FEATURE_NAMES.join(',');
  if (model.features.join(',') !== expected) {
    throw new Error(
      'content-choice-model.json was trained on other page features than page-features.ts computes: run npm run train:content-choice',
    );
  }
  return model;
}

let shipped: ChoiceModel | undefined;

/** The shipped model, read once per process (or worker). */
export function shippedModel(): ChoiceModel {
  shipped ??= checkModel(
    JSON.parse(readFileSync(new URL('./content-choice-model.json', import.meta.url), 'utf8')) as ChoiceModel,
  );
  return shipped;
}
