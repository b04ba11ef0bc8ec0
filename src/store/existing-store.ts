import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../config/load-config.ts';

/**
 * For commands that read or change existing records (`keys list|revoke`, `index stats`,
 * `campaigns list|show|report|update|pause|resume|delete`): opening a store creates it, so on
 * a mistyped SCOUT_DATA_DIR they would make an empty store and answer "no keys". Without the
 * store file they can only mean a wrong folder, so say that instead. Only commands that add
 * records (create, import, add, crawl, serve) may create a store.
 */
export function requireExistingStore(file: string, what: string, dataDir: string): void {
  if (existsSync(file)) return;
  throw new ConfigError(
    `SCOUT_DATA_DIR=${dataDir} holds no Scout ${what} (${resolve(file)} does not exist); point SCOUT_DATA_DIR at the folder the server uses`,
  );
}
