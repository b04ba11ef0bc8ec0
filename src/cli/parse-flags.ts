import { parseArgs } from 'node:util';
import { UsageError } from './cli-io.ts';

type Spec = Record<string, 'string' | 'boolean'>;

/**
 * node:util parseArgs with our error type; unknown flags are usage errors naming the flag.
 * --help never gets here: runCli answers it before a command runs (early-answer.ts).
 */
export function parseFlags(argv: string[], spec: Spec) {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: Object.fromEntries(Object.entries(spec).map(([k, type]) => [k, { type }])),
      allowPositionals: true,
      strict: true,
    });
    return { flags: values as Record<string, string | boolean | undefined>, positional: positionals };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      // Node's text goes on about `--`, which misleads more than it helps; keep the flag's name.
      const flag = /'([^']+)'/.exec((e as Error).message)?.[1];
      if (flag !== undefined) throw new UsageError(`unknown flag ${flag}`);
    }
    throw new UsageError((e as Error).message);
  }
}

/** For commands that take neither flags nor arguments (`serve`, `settings`). */
export function parseNoArguments(argv: string[]): void {
  const { positional } = parseFlags(argv, {});
  if (positional.length > 0) throw new UsageError(`unexpected argument ${positional[0]}`);
}
