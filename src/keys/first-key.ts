import { rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { ConfigError } from '../config/load-config.ts';

/**
 * Where the first API key of an embedded store is shown. stdout also carries the JSON logs,
 * and when it is not a terminal a log shipper (journald, a container runtime, a collector)
 * keeps every byte of it: a key printed there is a secret copied into the log store. So the
 * key goes to a terminal when there is one, and otherwise to a file only its owner can read,
 * with a line in the log naming the key's id and the file, never the key.
 */

export const FIRST_KEY_FILE = 'first-api-key.txt';

export interface FirstKey {
  id: string;
  key: string;
}

export interface FirstKeyOutput {
  /** The log stream (stdout): gets the pointer line when the key goes to the file. */
  out: Writable;
  /** A stream a person reads (a TTY), if any: stdout's when stdout is one, else stderr's. */
  terminal?: Writable;
  /** SCOUT_DATA_DIR, where the file is written (the embedded store's folder). */
  dataDir: string;
}

const lines = (created: FirstKey, base: string): string[] => [
  `  ${created.key}`,
  '',
  'Try it:',
  `  curl -s ${base}/v1/search -H 'Authorization: Bearer ${created.key}' -H 'Content-Type: application/json' -d '{"query":"getting started"}'`,
  '',
];

/**
 * Shows the key once. Throws a ConfigError when the file cannot be written, after which the
 * caller revokes the key (nobody could ever read it).
 */
export function showFirstKey(created: FirstKey, base: string, o: FirstKeyOutput): void {
  if (o.terminal !== undefined) {
    o.terminal.write(
      ['', 'Scout created your first API key (shown once; keep it):', ...lines(created, base)].join('\n'),
    );
    return;
  }
  const path = resolve(o.dataDir, FIRST_KEY_FILE);
  try {
    // A file left by an earlier store could have looser permissions: make a new one.
    rmSync(path, { force: true });
    writeFileSync(
      path,
      [
        `Scout created this API key (${created.id}) on its first start. Keep it somewhere safe, then delete this file.`,
        ...lines(created, base),
      ].join('\n'),
      { mode: 0o600, flag: 'wx' },
    );
  } catch (e) {
    throw new ConfigError(
      `cannot write the first API key to ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message} (SCOUT_DATA_DIR)`,
      { cause: e },
    );
  }
  o.out.write(
    `Scout created your first API key (${created.id}). stdout is not a terminal, so the key is not printed here: it is in ${path} (readable by its owner only); keep it, then delete the file.\n`,
  );
}
