import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { loadConfig } from './config/load-config.ts';
import { createScout, type Scout } from './compose.ts';

/** Scout's own docs/ folder: the starter corpus. */
export const DOCS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs');

/**
 * loadConfig → stores → app → listen. On a store without keys, creates one and prints it
 * once with a ready curl line. Closes gracefully on SIGINT/SIGTERM.
 */
export async function startServer(env: Record<string, string | undefined>, out: Writable): Promise<Scout> {
  const config = loadConfig(env);
  const scout = await createScout(config, { docsDir: DOCS_DIR });
  await scout.app.listen({ port: config.port, host: config.host });
  const address = scout.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // 0.0.0.0 and :: are "every interface": localhost reaches them; a specific host is shown as is.
  const shownHost = ['0.0.0.0', '::'].includes(config.host) ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  const base = config.publicUrl ?? `http://${shownHost}:${port}`;
  if ((await scout.stores.keys.count()) === 0) {
    const created = await scout.keys.create('default');
    out.write(
      [
        '',
        'Scout created your first API key (shown once; keep it):',
        `  ${created.key}`,
        '',
        'Try it:',
        `  curl -s ${base}/v1/search -H 'Authorization: Bearer ${created.key}' -H 'Content-Type: application/json' -d '{"query":"getting started"}'`,
        '',
      ].join('\n'),
    );
  }
  out.write(`Scout listening on ${base} (OpenAPI: ${base}/openapi.json)\n`);
  return scout;
}
