import { ConfigError } from '../config/load-config.ts';
import { DomainError } from '../domain/errors.ts';
import { UsageError, type CliCommand, type CliIO } from './cli-io.ts';

/** Commands load lazily so `scout keys list` does not pay for the extraction stack. */
const COMMANDS: Record<string, () => Promise<CliCommand>> = {
  serve: async () => (await import('./serve-command.ts')).serveCommand,
  keys: async () => (await import('./keys-command.ts')).keysCommand,
  index: async () => (await import('./index-command.ts')).indexCommand,
  extract: async () => (await import('./extract-command.ts')).extractCommand,
  fetch: async () => (await import('./fetch-command.ts')).fetchCommand,
  settings: async () => (await import('./settings-command.ts')).settingsCommand,
  campaigns: async () => (await import('./campaigns-command.ts')).campaignsCommand,
};

const USAGE = `usage: scout <command> [...]
  serve                      start the API (same as npm start)
  keys create|list|revoke    manage API keys
  index import|stats|add|crawl  manage the local index
  fetch <url>                print a page's main content as markdown
  campaigns create|update|list|show|pause|resume|delete|report   manage sponsored campaigns
  extract --base-url <url>   HTML on stdin → markdown on stdout
  settings                   every environment setting, as a markdown table`;

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  const load = name ? COMMANDS[name] : undefined;
  if (!load) {
    const asked = name === undefined || name === '--help' || name === '-h' || name === 'help';
    (asked ? io.stdout : io.stderr).write(`${USAGE}\n`);
    return asked ? 0 : 2;
  }
  try {
    return await (await load())(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`${e.message}\n`);
      return 2;
    }
    if (e instanceof ConfigError || e instanceof DomainError) {
      io.stderr.write(`scout: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
