import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScout, type CliRun } from '../helpers/cli.ts';

/** A data folder that does not exist: help must not create it (nor any store in it). */
const absentDataDir = () => join(mkdtempSync(join(tmpdir(), 'scout-help-')), 'data');
/** Should a command run instead of answering, it must not bind a public port. */
const safeEnv = (dataDir: string) => ({
  SCOUT_DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  SCOUT_STARTER_CORPUS: 'false',
});

/**
 * Fails instead of hanging when the command starts something long-running (`serve` did). Help
 * answers in milliseconds; the bound is far above that, for the machine may be busy (issue 24).
 */
const runQuickly = (argv: string[], env: Record<string, string>): Promise<CliRun> =>
  Promise.race([
    runScout(argv, env),
    new Promise<CliRun>((_, reject) =>
      setTimeout(() => reject(new Error(`scout ${argv.join(' ')} did not return`)), 30_000).unref(),
    ),
  ]);

const SUBCOMMANDS = {
  keys: ['create', 'list', 'revoke'],
  index: ['import', 'stats', 'list', 'remove', 'add', 'crawl', 'template'],
  campaigns: ['create', 'update', 'list', 'show', 'pause', 'resume', 'delete', 'report'],
  db: ['migrate', 'status'],
} satisfies Record<string, string[]>;
const PATHS: string[][] = [
  ['serve'],
  ['fetch'],
  ['extract'],
  ['settings'],
  ['mcp'],
  ...Object.entries(SUBCOMMANDS).flatMap(([group, subs]) => [[group], ...subs.map((sub) => [group, sub])]),
];

describe('--help and -h', () => {
  it.each(
    PATHS.flatMap((path) => [
      [path.join(' '), '--help'],
      [path.join(' '), '-h'],
    ]),
  )('scout %s %s prints its own usage on stdout and exits 0 without touching the data folder', async (path, flag) => {
    const dataDir = absentDataDir();
    const r = await runQuickly([...path.split(' '), flag], safeEnv(dataDir));
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(new RegExp(`^usage: scout ${path}\\b`));
    expect(existsSync(dataDir)).toBe(false);
  });

  it.each(
    Object.entries(SUBCOMMANDS).flatMap(([group, subs]) =>
      subs.map((sub) => [group, sub, subs.filter((s) => s !== sub)] as const),
    ),
  )('scout %s %s --help describes that subcommand alone', async (group, sub, others) => {
    const { stdout } = await runScout([group, sub, '--help'], safeEnv(absentDataDir()));
    expect(stdout).toMatch(new RegExp(`^usage: scout ${group} ${sub}\\b`));
    for (const other of others) expect(stdout).not.toContain(`scout ${group} ${other}`);
  });

  it('a group --help lists every subcommand', async () => {
    const { stdout } = await runScout(['campaigns', '--help'], safeEnv(absentDataDir()));
    for (const sub of SUBCOMMANDS.campaigns) expect(stdout).toContain(`scout campaigns ${sub}`);
  });

  it("keys create --help shows its flags, not the other subcommands' flags", async () => {
    const { stdout } = await runScout(['keys', 'create', '--help'], safeEnv(absentDataDir()));
    expect(stdout).toContain('--name <label>');
    const list = await runScout(['keys', 'list', '--help'], safeEnv(absentDataDir()));
    expect(list.stdout).toContain('--json');
    expect(list.stdout).not.toContain('--name');
  });

  it('scout help <command> <subcommand> is the same as --help', async () => {
    const env = safeEnv(absentDataDir());
    const viaHelp = await runScout(['help', 'index', 'crawl'], env);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe((await runScout(['index', 'crawl', '--help'], env)).stdout);
  });

  it('an unknown subcommand is a usage error even with --help', async () => {
    const r = await runScout(['keys', 'rotate', '--help'], safeEnv(absentDataDir()));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('rotate');
    expect(r.stderr).toContain('usage: scout keys');
  });

  it('a --help after -- is an argument, not a request for help', async () => {
    const r = await runScout(['extract', '--base-url', 'https://x.example/', '--', '--help'], safeEnv(absentDataDir()));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unexpected argument --help');
  });
});

describe('unknown flags', () => {
  it.each([
    [['serve', '--port', '9000'], '--port'],
    [['keys', 'list', '--bogus'], '--bogus'],
    [['keys', 'list', '--name', 'x'], '--name'],
    [['index', 'add', '--bogus', 'http://a.test/'], '--bogus'],
    [['campaigns', 'report', '--bogus'], '--bogus'],
    [['fetch', 'http://a.test/', '--bogus'], '--bogus'],
    [['extract', '--bogus'], '--bogus'],
    [['settings', '--bogus'], '--bogus'],
    [['mcp', '--bogus'], '--bogus'],
  ])('%j is a usage error (exit 2) naming %s', async (argv, flag) => {
    const dataDir = absentDataDir();
    const r = await runQuickly(argv, safeEnv(dataDir));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`unknown flag ${flag}`);
    expect(r.stderr).toContain('usage: scout');
    expect(r.stdout).toBe('');
    expect(existsSync(dataDir)).toBe(false);
  });

  it('serve takes no arguments', async () => {
    const r = await runQuickly(['serve', 'now'], safeEnv(absentDataDir()));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unexpected argument now');
  });
});

describe('--version', () => {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };

  it.each([['--version'], ['-v']])('scout %s prints the package version', async (flag) => {
    const r = await runScout([flag], {});
    expect(r).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('scout --help mentions --version', async () => {
    expect((await runScout(['--help'], {})).stdout).toContain('--version');
  });
});
