import type { Logger } from 'pino';
import type { Closers } from '../domain/closers.ts';
import { createApiKeys, type ApiKeys } from '../keys/api-keys.ts';
import { createKeyUsageRecorder, type KeyUsageRecorder } from '../keys/key-usage-recorder.ts';
import type { Stores } from '../store/ports.ts';

export interface Keys {
  keys: ApiKeys;
  /** Each key's requests, refusals and last use, counted in memory and written in batches. */
  usage: KeyUsageRecorder;
}

/** The API keys and their usage. */
export function assembleKeys(stores: Pick<Stores, 'keys'>, logger: Logger, closers: Closers): Keys {
  const keys = createApiKeys(stores.keys);
  const usage = createKeyUsageRecorder(stores.keys, {
    onError: (err) => logger.error({ err }, 'key usage: write failed; kept for the next try'),
  });
  // The last batch is written after the app's requests end (closers run in reverse), before
  // the stores close.
  closers.add(() => usage.close());
  return { keys, usage };
}
