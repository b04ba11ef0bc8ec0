import { loadConfig } from '../config/load-config.ts';
import { createApiKeys } from '../domain/api-keys.ts';
import { createStores } from '../store/create-stores.ts';
import { UsageError, type CliCommand } from './cli-io.ts';
import { parseFlags } from './parse-flags.ts';

const USAGE = `usage:
  scout keys create --name <label> [--json]   create a key; prints it once
  scout keys list [--json]                     list keys (no secrets)
  scout keys revoke <id>                       revoke a key (effective on the next request)`;

/** `scout keys …`: writes the same store a running server reads, so changes apply at once. */
export const keysCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  const { flags, positional } = parseFlags(rest, { name: 'string', json: 'boolean' });
  const stores = createStores(loadConfig(io.env));
  const keys = createApiKeys(stores.keys);
  try {
    switch (sub) {
      case 'create': {
        if (typeof flags.name !== 'string') throw new UsageError('keys create needs --name <label>');
        const created = await keys.create(flags.name);
        io.stdout.write(flags.json ? `${JSON.stringify(created)}\n` : `${created.key}\n`);
        return 0;
      }
      case 'list': {
        const list = await keys.list();
        if (flags.json) io.stdout.write(`${JSON.stringify(list)}\n`);
        else if (list.length === 0) io.stdout.write('no keys\n');
        else
          for (const k of list) {
            io.stdout.write(`${k.id}\t${k.name}\tcreated ${k.created_at}\t${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}\n`);
          }
        return 0;
      }
      case 'revoke': {
        const id = positional[0];
        if (!id) throw new UsageError('keys revoke needs the key id (see `scout keys list`)');
        if (!(await keys.revoke(id))) {
          io.stderr.write(`no active key with id ${id}\n`);
          return 1;
        }
        io.stdout.write(`revoked ${id}\n`);
        return 0;
      }
      default:
        throw new UsageError(USAGE);
    }
  } finally {
    await stores.close();
  }
};
