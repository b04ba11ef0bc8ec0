import { AsyncLocalStorage } from 'node:async_hooks';
import type { ByteAccount } from './byte-budget.ts';

/**
 * Carries a fetch's byte account from the fetch capacity (which opens it when the fetch
 * starts and closes it when the whole fetch, extraction included, has ended) down to the
 * body reader in src/fetch/http-fetch.ts, through the fetch service in between without
 * that service knowing: the limits stay a wrapper around the pipeline, not a part of it.
 * The body buffer lives until extraction is done, so the account must too; the HTTP layer
 * alone cannot know when that is.
 */

const scope = new AsyncLocalStorage<ByteAccount>();

export const runWithByteAccount = <T>(account: ByteAccount, work: () => Promise<T>): Promise<T> =>
  scope.run(account, work);

/** The account of the fetch this code runs for, or undefined outside one (the CLI's fetches). */
export const currentByteAccount = (): ByteAccount | undefined => scope.getStore();
