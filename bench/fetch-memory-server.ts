/**
 * The Scout measured by bench/fetch-memory.ts, alone in its own process so its RSS is its
 * own: settings from the environment (defaults unless the bench overrides them), every
 * *.bench host name resolving to the bench's origin on 127.0.0.2 (distinct names, so
 * per-host politeness does not serialise the load), the local index empty. Prints one JSON
 * line { port, key } once it listens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScout } from '../src/compose.ts';
import { loadScoutConfig } from '../src/scout-settings.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'scout-bench-memory-'));
const config = loadScoutConfig({
  SCOUT_LOG_LEVEL: 'silent',
  SCOUT_STARTER_CORPUS: 'false',
  SCOUT_RATE_LIMIT_RPM: '1000000',
  SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32',
  ...process.env,
  SCOUT_DATA_DIR: dataDir,
});
const scout = await createScout(config, {
  docsDir: new URL('../docs', import.meta.url).pathname,
  resolver: async (hostname) => {
    if (hostname.endsWith('.bench')) return [{ address: '127.0.0.2', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  },
  // No campaigns here: a landing check, should one happen, must not leave the machine.
  landingProbe: async () => {
    throw new Error('no landing pages in this benchmark');
  },
});
await scout.app.listen({ port: 0, host: '127.0.0.1' });
const address = scout.app.server.address();
const key = (await scout.keys.create('bench')).key;
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0, key })}\n`);

const stop = async () => {
  await scout.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
