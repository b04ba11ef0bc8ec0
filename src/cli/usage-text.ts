import { COMMAND_USAGE, isGroup, type Usage, type UsageGroup } from './command-usage.ts';

const lines = (...parts: (string | undefined)[]): string => `${parts.filter((p) => p !== undefined).join('\n')}\n`;

/** `scout --help`: one line a command. */
export function topUsage(): string {
  const rows = Object.entries(COMMAND_USAGE).map(([name, u]) => {
    // The bare command line: its own --help has the optional flags.
    const left = isGroup(u)
      ? `${name} ${Object.keys(u.subcommands).join('|')}`
      : u.synopsis.replace(/^scout /, '').replace(/ \[[^\]]*\]| < .*$/g, '');
    return left.length > 30 ? `  ${left}\n  ${''.padEnd(30)} ${u.about}` : `  ${left.padEnd(30)} ${u.about}`;
  });
  return lines(
    'usage: scout <command> [...]',
    ...rows,
    '  --version, -v                  print the version',
    '`scout <command> --help` describes a command.',
  );
}

/** `scout keys --help`: every subcommand of a group. */
export function groupUsage(name: string, group: UsageGroup): string {
  const subs = Object.values(group.subcommands).flatMap((u) => [`  ${u.synopsis}`, `      ${u.about}`]);
  return lines(
    `usage: scout ${name} <${Object.keys(group.subcommands).join('|')}> [...]`,
    ...subs,
    group.note,
    `\`scout ${name} <command> --help\` describes one command.`,
  );
}

/** `scout keys list --help`: that command alone (and its group's note). */
export const commandUsage = (u: Usage, note?: string): string => lines(`usage: ${u.synopsis}`, u.about, u.more, note);

/** The usage printed under a usage error of `scout <name> [sub]`: the most specific one known. */
export function usageFor(name: string, sub?: string): string {
  const u = COMMAND_USAGE[name];
  if (u === undefined) return topUsage();
  if (!isGroup(u)) return `usage: ${u.synopsis}\n`;
  const one = sub === undefined ? undefined : u.subcommands[sub];
  return one === undefined ? groupUsage(name, u) : `usage: ${one.synopsis}\n`;
}
