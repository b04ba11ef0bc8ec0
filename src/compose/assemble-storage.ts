import type { Logger } from 'pino';
import type { ScoutConfig } from '../scout-settings.ts';
import type { Closers } from '../domain/closers.ts';
import type { LocalIndexApi } from '../index/local-index-api.ts';
import { openServerIndex } from '../index/open-index.ts';
import { indexStarterCorpus } from '../index/starter-corpus.ts';
import { openServerStorage, type ServerStorage } from '../store/create-stores.ts';

/** Where state lives: the stores, the sponsored stores, the local index (opened), the shared result cache. */
export type Storage = Omit<ServerStorage, 'close' | 'index'> & { index: LocalIndexApi };

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
  // Opened above storage from where storage says it lives (index/open-index.ts), and closed
  // before it.
  const index = await openServerIndex(storage.index, config, logger);
  closers.add(() => index.close());
  logger.info({ mode: storage.mode }, 'storage');
  // Refreshed on every start (one transaction, imported documents untouched), so the
  // starter corpus follows the docs; turning it off removes it. Its URLs do not depend on
  // this process's port or public URL, so another process on the same folder writes nothing.
  if (config.starterCorpus) await indexStarterCorpus(index, docsDir);
  else await index.replaceSource('starter', []);
  index.startRanker();
  const { close: _close, index: _source, ...rest } = storage;
  return { ...rest, index };
}
