import { at } from '../domain/must.ts';
/**
 * Latencies kept as counts in fixed, geometrically spaced buckets (each 25% wider than the
 * last, from 0.25 ms to about two minutes), so a percentile costs no sorting and a bucket of
 * the dashboard's series holds 60 small integers however much traffic it saw. A percentile
 * is reported as its bucket's upper bound: at most 25% above the true value.
 */
const FIRST_MS = 0.25;
const GROWTH = 1.25;
export const SKETCH_SIZE = 60;
const BOUNDS = Array.from({ length: SKETCH_SIZE }, (_, i) => FIRST_MS * GROWTH ** i);
/** The last bucket's upper bound (BOUNDS' last). */
const TOP_MS = FIRST_MS * GROWTH ** (SKETCH_SIZE - 1);
const BUCKET = 'latency bucket';

export type LatencySketch = Uint32Array;

export const newSketch = (): LatencySketch => new Uint32Array(SKETCH_SIZE);

export function observe(sketch: LatencySketch, ms: number): void {
  const i = ms <= FIRST_MS ? 0 : Math.ceil(Math.log(ms / FIRST_MS) / Math.log(GROWTH));
  const bucket = Math.min(Math.max(i, 0), SKETCH_SIZE - 1);
  sketch[bucket] = at(sketch, bucket, BUCKET) + 1;
}

export function mergeInto(into: LatencySketch, from: LatencySketch): void {
  for (let i = 0; i < SKETCH_SIZE; i++) into[i] = at(into, i, BUCKET) + at(from, i, BUCKET);
}

/** The q-quantile (0..1) in milliseconds, rounded to 0.01; null when nothing was observed. */
export function quantile(sketch: LatencySketch, q: number): number | null {
  let total = 0;
  for (const n of sketch) total += n;
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const [i, bound] of BOUNDS.entries()) {
    seen += at(sketch, i, BUCKET);
    if (seen >= rank) return Math.round(bound * 100) / 100;
  }
  return Math.round(TOP_MS * 100) / 100;
}
