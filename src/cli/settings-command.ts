import type { CliCommand } from './cli-io.ts';
import { parseNoArguments } from './parse-flags.ts';
import { scoutSettings } from '../scout-settings.ts';

/** `scout settings`: every environment setting as a markdown table (the README's table). */
export const settingsCommand: CliCommand = async (argv, io) => {
  parseNoArguments(argv);
  for (const s of Object.values(scoutSettings)) {
    const def = s.default === '' ? '(unset)' : `\`${s.default}\``;
    io.stdout.write(`| \`${s.env}\` | ${def} | ${s.description.replace(/\|/g, '\\|')} |\n`);
  }
  return 0;
};
