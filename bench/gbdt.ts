/**
 * Gradient-boosted decision trees for a weighted binary choice (logistic loss, second-order
 * leaf values as in XGBoost): what train-content-choice.ts fits. Small and dependency-free,
 * because the model it makes is a few dozen shallow trees over ~40 features and a thousand
 * pages; its output is src/extract/html/content-choice.ts's TreeNode format.
 */
import { type TreeNode, treeValue } from '../src/extract/html/content-choice.ts';

export interface Sample {
  x: readonly number[];
  /** 1 when the positive choice is the better one. */
  y: 0 | 1;
  /** What choosing wrongly costs (here: the F1 difference between the two readings). */
  w: number;
}

export interface GbdtOptions {
  trees: number;
  depth: number;
  learningRate: number;
  /** L2 penalty on leaf values. */
  lambda: number;
  /** Least summed hessian weight in a leaf. */
  minChildWeight: number;
  /** Candidate thresholds per feature (quantiles of its values). */
  bins: number;
}

export const DEFAULT_GBDT: GbdtOptions = {
  trees: 60,
  depth: 3,
  learningRate: 0.1,
  lambda: 0.1,
  minChildWeight: 0.5,
  bins: 32,
};

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Up to `bins` thresholds between distinct values of each feature, at its quantiles. */
function thresholds(samples: readonly Sample[], features: number, bins: number): number[][] {
  const out: number[][] = [];
  for (let f = 0; f < features; f += 1) {
    const values = [...new Set(samples.map((s) => s.x[f] ?? 0))].sort((a, b) => a - b);
    const cuts = new Set<number>();
    for (let b = 1; b <= bins; b += 1) {
      const i = Math.floor((b * (values.length - 1)) / (bins + 1));
      const lo = values[i];
      const hi = values[i + 1];
      if (lo !== undefined && hi !== undefined) cuts.add((lo + hi) / 2);
    }
    out.push([...cuts]);
  }
  return out;
}

interface Grad {
  g: number;
  h: number;
}

function grow(
  rows: number[],
  samples: readonly Sample[],
  grads: readonly Grad[],
  cuts: readonly number[][],
  depth: number,
  o: GbdtOptions,
  nodes: TreeNode[],
): number {
  const index = nodes.length;
  let G = 0;
  let H = 0;
  for (const r of rows) {
    G += grads[r]?.g ?? 0;
    H += grads[r]?.h ?? 0;
  }
  const leaf = (): number => {
    nodes[index] = [-1, (-G / (H + o.lambda)) * o.learningRate];
    return index;
  };
  nodes.push([-1, 0]);
  if (depth === 0 || rows.length < 2) return leaf();
  const parent = (G * G) / (H + o.lambda);
  let best = { gain: 1e-9, feature: -1, threshold: 0 };
  cuts.forEach((featureCuts, f) => {
    for (const t of featureCuts) {
      let gl = 0;
      let hl = 0;
      for (const r of rows) {
        if ((samples[r]?.x[f] ?? 0) < t) {
          gl += grads[r]?.g ?? 0;
          hl += grads[r]?.h ?? 0;
        }
      }
      const gr = G - gl;
      const hr = H - hl;
      if (hl < o.minChildWeight || hr < o.minChildWeight) continue;
      const gain = (gl * gl) / (hl + o.lambda) + (gr * gr) / (hr + o.lambda) - parent;
      if (gain > best.gain) best = { gain, feature: f, threshold: t };
    }
  });
  if (best.feature < 0) return leaf();
  const leftRows = rows.filter((r) => (samples[r]?.x[best.feature] ?? 0) < best.threshold);
  const rightRows = rows.filter((r) => (samples[r]?.x[best.feature] ?? 0) >= best.threshold);
  const left = grow(leftRows, samples, grads, cuts, depth - 1, o, nodes);
  const right = grow(rightRows, samples, grads, cuts, depth - 1, o, nodes);
  nodes[index] = [best.feature, best.threshold, left, right];
  return index;
}

export interface Gbdt {
  bias: number;
  trees: TreeNode[][];
}

export function predict(model: Gbdt, x: readonly number[]): number {
  return model.trees.reduce((sum, tree) => sum + treeValue(tree, x), model.bias);
}

/** Fits the trees to weighted samples; the bias is the weighted log-odds of the positive choice. */
export function fitGbdt(samples: readonly Sample[], options: Partial<GbdtOptions> = {}): Gbdt {
  const o = { ...DEFAULT_GBDT, ...options };
  const features = samples[0]?.x.length ?? 0;
  const cuts = thresholds(samples, features, o.bins);
  const wPos = samples.reduce((n, s) => n + s.w * s.y, 0);
  const wAll = samples.reduce((n, s) => n + s.w, 0);
  const p0 = Math.min(0.99, Math.max(0.01, wAll === 0 ? 0.5 : wPos / wAll));
  const model: Gbdt = { bias: Math.log(p0 / (1 - p0)), trees: [] };
  const score = samples.map(() => model.bias);
  const rows = samples.map((_, i) => i);
  for (let t = 0; t < o.trees; t += 1) {
    const grads = samples.map((s, i) => {
      const p = sigmoid(score[i] ?? 0);
      return { g: s.w * (p - s.y), h: s.w * Math.max(p * (1 - p), 1e-6) };
    });
    const nodes: TreeNode[] = [];
    grow(rows, samples, grads, cuts, o.depth, o, nodes);
    model.trees.push(nodes);
    samples.forEach((s, i) => {
      score[i] = (score[i] ?? 0) + treeValue(nodes, s.x);
    });
  }
  return model;
}
