/**
 * The last `count` time buckets of `bucketMs` each (a ring): the bucket of a moment is made
 * (or reset, when the ring comes round to it again) when first written, so nothing runs on a
 * timer and an idle process keeps no stale figures.
 */
export interface RollingBuckets<B> {
  /** The bucket holding `at` (epoch ms), made empty when it is new. */
  at(at: number): B;
  /** The `count` buckets ending with the one holding `now`, oldest first; empty ones included. */
  series(now: number): { start: number; bucket: B }[];
  readonly bucketMs: number;
}

export function createRollingBuckets<B>(bucketMs: number, count: number, empty: () => B): RollingBuckets<B> {
  const slots: { index: number; bucket: B }[] = [];
  /** The ring position of a bucket index (indexes of moments before 1970 are negative). */
  const position = (index: number) => ((index % count) + count) % count;
  const slot = (index: number) => slots[position(index)];
  return {
    bucketMs,
    at(at) {
      const index = Math.floor(at / bucketMs);
      const s = slot(index);
      if (s !== undefined && s.index === index) return s.bucket;
      const fresh = { index, bucket: empty() };
      slots[position(index)] = fresh;
      return fresh.bucket;
    },
    series(now) {
      const last = Math.floor(now / bucketMs);
      const out: { start: number; bucket: B }[] = [];
      for (let index = last - count + 1; index <= last; index++) {
        const s = slot(index);
        out.push({ start: index * bucketMs, bucket: s !== undefined && s.index === index ? s.bucket : empty() });
      }
      return out;
    },
  };
}
