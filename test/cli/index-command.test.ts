import { runScout } from '../helpers/cli.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'scout-index-cli-'));
  dirs.push(d);
  return d;
}

/** `scout index …` in-process, through the real CLI entry. */
const run = (argv: string[], env: Record<string, string>) => runScout(['index', ...argv], env);

const jsonl = (dir: string, lines: string[]): string => {
  const file = join(dir, 'docs.jsonl');
  writeFileSync(file, lines.join('\n'));
  return file;
};

describe('scout index', () => {
  it('imports a JSONL file into $SCOUT_DATA_DIR/index.db, reporting bad lines', async () => {
    const dir = tempDir();
    const env = { SCOUT_DATA_DIR: join(dir, 'data') };
    const file = jsonl(dir, [
      JSON.stringify({ url: 'https://a.test/1', title: 'One', content: 'first', published_date: '2024-01-02' }),
      'not json',
      JSON.stringify({ url: 'https://a.test/2', title: '', content: 'second' }),
      JSON.stringify({ url: 'https://b.test/3', title: 'Three', content: 'third', country: 'nl' }),
    ]);
    const imported = await run(['import', file], env);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toBe('imported 2 documents, skipped 2 bad lines; the index now holds 2 documents\n');
    expect(imported.stderr).toMatch(/^line 2: invalid JSON/m);
    expect(imported.stderr).toMatch(/^line 3: title must not be empty$/m);

    const stats = await run(['stats', '--json'], env);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({
      documents: 2,
      domains: 2,
      dated: 1,
      newest: '2024-01-02',
      sources: { import: 2 },
    });

    const human = await run(['stats'], env);
    expect(human.stdout).toMatch(/^documents\s+2$/m);
    expect(human.stdout).toMatch(/^dated\s+1 \(2024-01-02 \.\. 2024-01-02\)$/m);
  });

  it('caps the bad lines it prints', async () => {
    const dir = tempDir();
    const file = jsonl(
      dir,
      Array.from({ length: 150 }, () => '{'),
    );
    const r = await run(['import', file], { SCOUT_DATA_DIR: join(dir, 'data') });
    expect(r.code).toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(101);
    expect(r.stderr).toContain('… and 50 more bad lines');
  });

  it('fails with a clear message on a missing file', async () => {
    const dir = tempDir();
    const r = await run(['import', join(dir, 'absent.jsonl')], { SCOUT_DATA_DIR: join(dir, 'data') });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot read .*absent\.jsonl: no such file/);
  });

  it('reports an invalid configuration instead of throwing', async () => {
    const r = await run(['stats'], { SCOUT_DATA_DIR: tempDir(), PORT: 'eighty' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^scout index: PORT /);
  });

  it.each([[[]], [['import']], [['import', 'a', 'b']], [['stats', '--csv']], [['frobnicate']]])(
    'answers bad usage %j with the usage text and exit 2',
    async (argv) => {
      const r = await run(argv, { SCOUT_DATA_DIR: tempDir() });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('usage: scout index');
    },
  );

  it('prints help on stdout', async () => {
    const r = await run(['--help'], { SCOUT_DATA_DIR: tempDir() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('import <file.jsonl>');
  });
});
