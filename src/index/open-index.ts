import type { Config } from '../config/settings.ts';
import { openIndexSource, type CliStoreOptions, type IndexSource, type StorageLogger } from '../store/create-stores.ts';
import { openFollowerIndex } from './follower-index.ts';
import type { LocalIndexApi, LocalIndexWriter } from './local-index-api.ts';
import { openLocalIndex } from './local-index.ts';
import { StoreIndexWriter } from './store-index-writer.ts';

const MIB = 1024 * 1024;

/**
 * The server's local index over the source storage chose (store/create-stores.ts): the
 * embedded index on its SQLite file, or one that follows the shared document store in memory
 * (follower-index.ts). Closed by the caller, before the storage it came from.
 */
export async function openServerIndex(
  source: IndexSource,
  config: Pick<Config, 'indexMemoryMb'>,
  logger: StorageLogger,
): Promise<LocalIndexApi> {
  const memoryBudgetBytes = config.indexMemoryMb * MIB;
  if ('file' in source) {
    return openLocalIndex(source.file, {
      memoryBudgetBytes,
      onRankerChange: (s) => logger.info({ documents: s.documents, ms: s.ms }, 'local index ranked in memory'),
    });
  }
  return openFollowerIndex(source.store, {
    memoryBudgetBytes,
    onRankerChange: (s) =>
      logger.info({ documents: s.documents, ms: s.ms }, 'local index (PostgreSQL) ranked in memory'),
    onStoreError: (err) =>
      logger.warn({ err: String(err) }, 'local index cannot read PostgreSQL: searching what it holds until it can'),
    onStoreRecovered: () => logger.info({}, 'local index reads PostgreSQL again'),
  });
}

/**
 * The local index the server reads, for writing by `scout index` (a running server sees what
 * is written): the embedded file, or the shared document store with nothing ranked, so the
 * CLI does not load the whole index into memory to add to it.
 */
export async function openIndexWriter(config: Config, o: CliStoreOptions): Promise<LocalIndexWriter> {
  const source = await openIndexSource(config, o);
  return 'file' in source ? openLocalIndex(source.file) : new StoreIndexWriter(source.store);
}
