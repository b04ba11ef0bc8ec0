import { ConfigError } from '../config/load-config.ts';
import { DomainError } from '../domain/errors.ts';
import { UsageError, type CliCommand, type CliIO } from './cli-io.ts';
import { earlyAnswer } from './early-answer.ts';
import { usageFor } from './usage-text.ts';
import { internalError } from '../domain/must.ts';

/** Commands load lazily so `scout keys list` does not pay for the extraction stack. */
const COMMANDS: Record<string, () => Promise<CliCommand>> = {
  serve: async () => (await import('./serve-command.ts')).serveCommand,
  keys: async () => (await import('./keys-command.ts')).keysCommand,
  index: async () => (await import('./index-command.ts')).indexCommand,
  extract: async () => (await import('./extract-command.ts')).extractCommand,
  fetch: async () => (await import('./fetch-command.ts')).fetchCommand,
  settings: async () => (await import('./settings-command.ts')).settingsCommand,
  campaigns: async () => (await import('./campaigns-command.ts')).campaignsCommand,
  db: async () => (await import('./db-command.ts')).dbCommand,
  mcp: async () => (await import('./mcp-command.ts')).mcpCommand,
  providers: async () => (await import('./providers-command.ts')).providersCommand,
};

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const early = earlyAnswer(argv);
  if (early !== undefined) {
    (early.code === 0 ? io.stdout : io.stderr).write(early.text);
    return early.code;
  }
  const [name, ...rest] = argv;
  // earlyAnswer has answered every command line that does not start with a known command.
  const load = name === undefined ? undefined : COMMANDS[name];
  if (name === undefined || load === undefined) throw internalError(`no command to run for "${argv.join(' ')}"`);
  try {
    return await (await load())(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      // A message that is not already a usage text gets the usage it broke under it.
      io.stderr.write(e.message.includes('usage:') ? `${e.message}\n` : `${e.message}\n${usageFor(name, rest[0])}`);
      return 2;
    }
    if (e instanceof ConfigError || e instanceof DomainError) {
      io.stderr.write(`scout: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
