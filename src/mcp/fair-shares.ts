import { at } from '../domain/must.ts';

/**
 * `total` shared over `needs` (max-min fairness): each gets what it needs, up to an equal share
 * of what is left, and what a small need leaves over goes to the larger ones. Whole numbers;
 * the sum never passes `total`. fetch_pages and parallel_search share the result bound so.
 */
export function fairShares(needs: readonly number[], total: number): number[] {
  const out = needs.map(() => 0);
  const order = needs.map((_, i) => i).sort((a, b) => at(needs, a, 'need') - at(needs, b, 'need'));
  let left = Math.max(0, Math.floor(total));
  let count = order.length;
  for (const i of order) {
    const give = Math.min(Math.max(0, at(needs, i, 'need')), Math.floor(left / count));
    out[i] = give;
    left -= give;
    count -= 1;
  }
  return out;
}
