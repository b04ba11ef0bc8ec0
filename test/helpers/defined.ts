/**
 * Checks that narrow, for tests and benches under noUncheckedIndexedAccess: where `x[0]!`
 * only tells the compiler to assume, these throw at once with what was missing, instead of
 * a TypeError further on. `expect(x).toBeDefined()` asserts but does not narrow the type.
 */

/** The value, or a thrown Error naming `what` when it is undefined (null passes through). */
export function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`expected ${what}, got undefined`);
  return value;
}

/** The one element of `items`, or a thrown Error giving how many there were. */
export function only<T>(items: readonly T[], what: string): T {
  if (items.length !== 1) throw new Error(`expected exactly one ${what}, got ${items.length}`);
  // The length is checked: the element is there, even when T itself admits undefined.
  return items[0] as T;
}
