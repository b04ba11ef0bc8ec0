import { parseArgs } from 'node:util';
import { UsageError } from './cli-io.ts';

type Spec = Record<string, 'string' | 'boolean'>;

/** node:util parseArgs with our error type; unknown flags are usage errors. */
export function parseFlags(argv: string[], spec: Spec) {
  if (argv.includes('--help') || argv.includes('-h')) {
    const flags = Object.entries(spec).map(([k, type]) => (type === 'string' ? `--${k} <value>` : `--${k}`));
    throw new UsageError(`flags: ${flags.join(' ') || '(none)'}; run \`scout --help\` for the commands`);
  }
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: Object.fromEntries(Object.entries(spec).map(([k, type]) => [k, { type }])),
      allowPositionals: true,
      strict: true,
    });
    return { flags: values as Record<string, string | boolean | undefined>, positional: positionals };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}
