import { loadScoutConfig } from '../scout-settings.ts';
import { databaseMigrations, type MigrationState } from '../store/create-stores.ts';
import { UsageError, type CliCommand } from './cli-io.ts';
import { parseFlags } from './parse-flags.ts';

const line = (m: MigrationState): string =>
  `${String(m.version).padStart(3, '0')}-${m.name}\t${m.appliedAt === null ? 'pending' : `applied ${m.appliedAt.toISOString()}`}\n`;

/** `scout db migrate|status`: PostgreSQL's versioned migrations, for deploy steps and operators. */
export const dbCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub !== 'migrate' && sub !== 'status') throw new UsageError(`unknown db command "${sub ?? ''}"`);
  const { flags, positional } = parseFlags(rest, sub === 'status' ? { json: 'boolean' } : {});
  if (positional[0] !== undefined) throw new UsageError(`unexpected argument ${positional[0]}`);
  const config = loadScoutConfig(io.env);
  const report = await databaseMigrations(config, sub);
  if (sub === 'migrate') {
    if (report.length === 0) io.stdout.write(`schema ${config.databaseSchema} is up to date\n`);
    for (const m of report) io.stdout.write(line(m));
    return 0;
  }
  if (flags.json) {
    io.stdout.write(
      `${JSON.stringify(report.map((m) => ({ version: m.version, name: m.name, applied_at: m.appliedAt?.toISOString() ?? null })))}\n`,
    );
    return 0;
  }
  for (const m of report) io.stdout.write(line(m));
  const pending = report.filter((m) => m.appliedAt === null).length;
  io.stdout.write(`schema ${config.databaseSchema}: ${report.length - pending} applied, ${pending} pending\n`);
  return 0;
};
