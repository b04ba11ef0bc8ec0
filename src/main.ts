import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { loadScoutConfig, type ScoutConfig } from './scout-settings.ts';
import { createScout, type Scout } from './compose.ts';
import { ensureDataDir, listenError } from './startup-errors.ts';
import { showFirstKey } from './keys/first-key.ts';
import { searchLine } from './config/provider-settings.ts';
import { anonymousLine } from './config/anonymous-settings.ts';

/** Scout's own docs/ folder: the starter corpus. */
export const DOCS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs');

export interface StartOptions {
  /**
   * A stream a person reads (a TTY), where the first API key may be printed. Without one the
   * key is written to a 0600 file in SCOUT_DATA_DIR and `out` only names it (src/keys/first-key.ts).
   */
  terminal?: Writable;
}

/**
 * loadScoutConfig → stores → app → listen. On an embedded store without keys, creates one and
 * shows it once with a ready curl line (a shared store's keys come from `scout keys create`):
 * on `terminal`, else in a file. `out` gets the listening line and the JSON logs (the serve
 * command passes a stdout that never blocks), never the key. A data folder Scout cannot
 * write or a port it cannot listen on is a one-line ConfigError, with everything opened
 * closed again. The caller closes the returned Scout (`scout serve` does on SIGINT/SIGTERM).
 */
export async function startServer(
  env: Record<string, string | undefined>,
  out: Writable,
  options: StartOptions = {},
): Promise<Scout> {
  const config = loadScoutConfig(env);
  // The data folder holds the embedded store; with PostgreSQL nothing is written there.
  if (config.databaseUrl === undefined) ensureDataDir(config.dataDir);
  const scout = await createScout(config, { docsDir: DOCS_DIR, logStream: out });
  try {
    await announce(scout, config, out, options.terminal);
  } catch (e) {
    // Nothing left open (the event writer thread, the ranker, the SQLite files), so the
    // process ends after its one-line message instead of staying up half started.
    await scout.close().catch(() => undefined);
    throw e;
  }
  return scout;
}

/** Listens, then prints the first key (if the store has none) and where Scout listens. */
async function announce(
  scout: Scout,
  config: ScoutConfig,
  out: Writable,
  terminal: Writable | undefined,
): Promise<void> {
  try {
    await scout.app.listen({ port: config.port, host: config.host });
  } catch (e) {
    throw listenError(e, config.host, config.port);
  }
  const address = scout.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // 0.0.0.0 and :: are "every interface": localhost reaches them; a specific host is shown as is.
  const shownHost = ['0.0.0.0', '::'].includes(config.host)
    ? 'localhost'
    : config.host.includes(':')
      ? `[${config.host}]`
      : config.host;
  const base = config.publicUrl ?? `http://${shownHost}:${port}`;
  const noKeys = (await scout.stores.keys.count()) === 0;
  if (noKeys && scout.storageMode !== 'embedded') {
    // Replicas starting together would each make one: keys of a shared store come from the CLI.
    out.write(
      `No API key yet: create one with \`scout keys create --name <label>\` and the same SCOUT_DATABASE_URL; every replica accepts it.\n`,
    );
  } else if (noKeys) {
    const created = await scout.keys.create('default');
    try {
      showFirstKey(created, base, { out, dataDir: config.dataDir, ...(terminal ? { terminal } : {}) });
    } catch (e) {
      // Nobody could ever read it: the next start makes another.
      await scout.keys.revoke(created.id).catch(() => undefined);
      throw e;
    }
  }
  out.write(`Scout listening on ${base} (OpenAPI: ${base}/openapi.json)\n`);
  out.write(`${searchLine(config.searchProviders, config.searchMode)}\n`);
  const anonymous = anonymousLine(config);
  if (anonymous !== undefined) out.write(`${anonymous}\n`);
}
