/**
 * Reads the code knows succeed: an index below an array's length the code itself keeps, a
 * map key it set, a regular expression group that always takes part in a match. The type
 * checker cannot prove them (noUncheckedIndexedAccess), so they are checked: a broken
 * invariant stops at the read with an error naming it, instead of an undefined travelling
 * on to fail somewhere else (or not at all). Not for absence the code expects (a user's
 * input, a lookup that may miss): that gets its own branch.
 *
 * The error is a plain Error, not a DomainError: the HTTP error handler answers it as any
 * unexpected error (500, message not shown).
 */

/** The error for a broken invariant: `internal: <what>`. */
export const internalError = (what: string): Error => new Error(`internal: ${what}`);

/** `value` itself; throws internalError(`<what> is missing`) when it is undefined. */
export function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw internalError(`${what} is missing`);
  return value;
}

/** `items[i]`; throws internalError naming `what`, the index and the length when there is none. */
export function at<T>(items: ArrayLike<T>, i: number, what: string): T {
  const value = items[i];
  if (value === undefined) throw internalError(`${what} ${i} is out of range (length ${items.length})`);
  return value;
}
