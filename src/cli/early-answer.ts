import { COMMAND_USAGE, isGroup } from './command-usage.ts';
import { commandUsage, groupUsage, topUsage } from './usage-text.ts';
import { packageVersion } from '../domain/package-version.ts';

export interface EarlyAnswer {
  /** 0: the text goes to stdout; otherwise to stderr. */
  code: number;
  text: string;
}

/** --help or -h before `--` (after it they are arguments, e.g. a file named -h). */
export function asksHelp(argv: string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

const isHelpWord = (arg: string | undefined): boolean => arg === 'help' || arg === '--help' || arg === '-h';

/**
 * What `scout <argv>` answers without running a command: help, the version, and unknown or
 * missing (sub)commands. Deciding this before a command's module loads is what keeps
 * `scout serve --help` from starting a server and `scout keys list --help` from opening a store.
 */
export function earlyAnswer(argv: string[]): EarlyAnswer | undefined {
  const [name, sub, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') return { code: 0, text: topUsage() };
  if (name === 'help')
    return argv.length === 1 ? { code: 0, text: topUsage() } : earlyAnswer([...argv.slice(1), '--help']);
  if (name === '--version' || name === '-v') return { code: 0, text: `${packageVersion()}\n` };
  const usage = COMMAND_USAGE[name];
  if (usage === undefined) return { code: 2, text: `scout: unknown command "${name}"\n${topUsage()}` };
  if (!isGroup(usage)) return asksHelp(argv.slice(1)) ? { code: 0, text: commandUsage(usage) } : undefined;
  if (isHelpWord(sub)) return { code: 0, text: groupUsage(name, usage) };
  if (sub === undefined) return { code: 2, text: groupUsage(name, usage) };
  const one = usage.subcommands[sub];
  if (one === undefined)
    return { code: 2, text: `scout ${name}: unknown command "${sub}"\n${groupUsage(name, usage)}` };
  return asksHelp(rest) ? { code: 0, text: commandUsage(one, usage.note) } : undefined;
}
