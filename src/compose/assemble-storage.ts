import type { Logger } from 'pino';
import type { ScoutConfig } from '../scout-settings.ts';
import type { Closers } from '../domain/closers.ts';
import { indexStarterCorpus } from '../index/starter-corpus.ts';
import { openServerStorage, type ServerStorage } from '../store/create-stores.ts';

/** Where state lives: the stores, the sponsored stores, the local index, the shared result cache. */
export type Storage = Omit<ServerStorage, 'close'>;

/**
 * Storage in the mode the settings choose (store/create-stores.ts) and the local index,
 * opened, its starter corpus refreshed and its ranker started: everything that opens state
 * is here, in one place.
 */
export async function assembleStorage(
  config: ScoutConfig,
  docsDir: string,
  logger: Logger,
  closers: Closers,
): Promise<Storage> {
  const storage = await openServerStorage(config, {
    logger,
    remoteProviders: config.searchProviders.some((p) => p !== 'local'),
  });
  closers.add(() => storage.close());
  const { index } = storage;
  logger.info({ mode: storage.mode }, 'storage');
  // Refreshed on every start (one transaction, imported documents untouched), so the
  // starter corpus follows the docs; turning it off removes it. Its URLs do not depend on
  // this process's port or public URL, so another process on the same folder writes nothing.
  if (config.starterCorpus) await indexStarterCorpus(index, docsDir);
  else await index.replaceSource('starter', []);
  index.startRanker();
  return storage;
}
