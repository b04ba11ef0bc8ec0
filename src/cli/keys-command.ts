import { loadScoutConfig } from '../scout-settings.ts';
import { listKeysWithUsage } from '../admin/key-admin.ts';
import { createApiKeys } from '../keys/api-keys.ts';
import { openKeyStore } from '../store/create-stores.ts';
import { UsageError, type CliCommand } from './cli-io.ts';
import { parseFlags } from './parse-flags.ts';
import { must } from '../domain/must.ts';

/** Each subcommand's flags: a flag of another subcommand is an unknown flag here. */
const FLAGS = {
  create: { name: 'string', json: 'boolean' },
  list: { json: 'boolean' },
  revoke: {},
} as const;

/** `scout keys …`: writes the store the running servers read (SCOUT_DATA_DIR or SCOUT_DATABASE_URL), so changes apply at once. */
export const keysCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub !== 'create' && sub !== 'list' && sub !== 'revoke')
    throw new UsageError(`unknown keys command "${sub ?? ''}"`);
  const { flags, positional } = parseFlags(rest, FLAGS[sub]);
  // Arguments are checked before the store opens, so a usage error never creates one.
  if (sub === 'create' && typeof flags.name !== 'string') throw new UsageError('keys create needs --name <label>');
  if (sub === 'revoke' && !positional[0]) throw new UsageError('keys revoke needs the key id (see `scout keys list`)');
  const extra = positional[sub === 'revoke' ? 1 : 0];
  if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
  const config = loadScoutConfig(io.env);
  // Only create may make the store: list and revoke need keys that exist.
  const stores = await openKeyStore(config, { mustExist: sub !== 'create' });
  const keys = createApiKeys(stores.keys);
  try {
    switch (sub) {
      case 'create': {
        const created = await keys.create(flags.name as string);
        io.stdout.write(flags.json ? `${JSON.stringify(created)}\n` : `${created.key}\n`);
        return 0;
      }
      case 'list': {
        // Usage as the servers last wrote it (each flushes its counts every few seconds).
        const list = await listKeysWithUsage(stores.keys);
        if (flags.json) io.stdout.write(`${JSON.stringify(list)}\n`);
        else if (list.length === 0) io.stdout.write('no keys\n');
        else
          for (const k of list) {
            const status = k.revoked_at ? `revoked ${k.revoked_at}` : 'active';
            const use = `${k.requests} requests\t${k.refusals} refused\t${k.last_used_at ? `last used ${k.last_used_at}` : 'never used'}`;
            io.stdout.write(`${k.id}\t${k.name}\tcreated ${k.created_at}\t${status}\t${use}\n`);
          }
        return 0;
      }
      case 'revoke': {
        // Checked above: revoke has its key id.
        const id = must(positional[0], 'the key id to revoke');
        if (!(await keys.revoke(id))) {
          io.stderr.write(`no active key with id ${id}\n`);
          return 1;
        }
        io.stdout.write(`revoked ${id}\n`);
        return 0;
      }
    }
  } finally {
    await stores.close();
  }
};
