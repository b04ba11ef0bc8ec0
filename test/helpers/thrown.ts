import { expect } from 'vitest';

/**
 * What `p` rejects with (an SDK's error, for assertions on its class, status and message);
 * fails when it resolves. With `type`, the error must be an instance of it.
 */
export async function thrown<E extends Error = Error>(
  p: Promise<unknown>,
  type?: abstract new (...args: never[]) => E,
): Promise<E> {
  try {
    await p;
  } catch (e) {
    if (type !== undefined) expect(e).toBeInstanceOf(type);
    return e as E;
  }
  throw new Error('expected the call to throw');
}
