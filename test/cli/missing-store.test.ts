import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScout } from '../helpers/cli.ts';
import { campaignFile } from '../sponsored/sponsored-fixture.ts';

const root = () => mkdtempSync(join(tmpdir(), 'scout-no-store-'));

/** Commands that read or change existing records: on a folder without the store they can only mean a wrong SCOUT_DATA_DIR. */
const NEEDS_A_STORE: [string[], string][] = [
  [['keys', 'list'], 'scout.db'],
  [['keys', 'list', '--json'], 'scout.db'],
  [['keys', 'revoke', 'key_123'], 'scout.db'],
  [['index', 'stats'], 'index.db'],
  [['index', 'stats', '--json'], 'index.db'],
  [['campaigns', 'list'], 'sponsored.db'],
  [['campaigns', 'show', 'cmp_1'], 'sponsored.db'],
  [['campaigns', 'report'], 'sponsored.db'],
  [['campaigns', 'pause', 'cmp_1'], 'sponsored.db'],
  [['campaigns', 'resume', 'cmp_1'], 'sponsored.db'],
  [['campaigns', 'delete', 'cmp_1'], 'sponsored.db'],
];

describe('read-only commands on a SCOUT_DATA_DIR without a Scout store', () => {
  it.each(NEEDS_A_STORE)(
    '%j says so in one line naming SCOUT_DATA_DIR and %s, exits 1 and creates nothing',
    async (argv, file) => {
      const dataDir = join(root(), 'typo');
      const r = await runScout(argv, { SCOUT_DATA_DIR: dataDir });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`SCOUT_DATA_DIR=${dataDir}`);
      expect(r.stderr).toContain(join(resolve(dataDir), file));
      expect(existsSync(dataDir)).toBe(false);
    },
  );

  it.each(NEEDS_A_STORE)('%j leaves an existing but empty folder empty', async (argv) => {
    const dataDir = join(root(), 'data');
    mkdirSync(dataDir);
    expect((await runScout(argv, { SCOUT_DATA_DIR: dataDir })).code).toBe(1);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('campaigns update checks the store, not only the file', async () => {
    const dir = root();
    const file = join(dir, 'c.json');
    writeFileSync(file, JSON.stringify(campaignFile()));
    const r = await runScout(['campaigns', 'update', 'cmp_1', '--file', file], { SCOUT_DATA_DIR: join(dir, 'data') });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('sponsored.db');
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('commands that add records still create the store', async () => {
    const dataDir = join(root(), 'data');
    expect((await runScout(['keys', 'create', '--name', 'first'], { SCOUT_DATA_DIR: dataDir })).code).toBe(0);
    const list = await runScout(['keys', 'list'], { SCOUT_DATA_DIR: dataDir });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('first');
  });
});
