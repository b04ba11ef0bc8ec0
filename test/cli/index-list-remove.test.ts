import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScout } from '../helpers/cli.ts';

async function indexWith(docs: object[]) {
  const dir = mkdtempSync(join(tmpdir(), 'scout-index-list-'));
  const env = { SCOUT_DATA_DIR: join(dir, 'data') };
  const file = join(dir, 'docs.jsonl');
  writeFileSync(file, docs.map((d) => JSON.stringify(d)).join('\n'));
  expect((await runScout(['index', 'import', file], env)).code).toBe(0);
  return env;
}

const DOCS = [
  { url: 'https://example.com/b', title: 'Bee', content: 'bees', published_date: '2024-05-01' },
  { url: 'https://blog.example.com/a', title: 'Ant', content: 'ants' },
  { url: 'https://other.org/c', title: 'Cat', content: 'cats' },
];

describe('scout index list', () => {
  it('lists documents in url order as url, title, source and date; filters by domain with subdomains', async () => {
    const env = await indexWith(DOCS);
    const all = await runScout(['index', 'list'], env);
    expect(all).toEqual({
      code: 0,
      stdout:
        'https://blog.example.com/a\tAnt\timport\t-\nhttps://example.com/b\tBee\timport\t2024-05-01\nhttps://other.org/c\tCat\timport\t-\n',
      stderr: '',
    });
    const some = await runScout(['index', 'list', '--domain', 'Example.com', '--json'], env);
    expect(JSON.parse(some.stdout)).toEqual({
      documents: [
        {
          url: 'https://blog.example.com/a',
          title: 'Ant',
          domain: 'blog.example.com',
          source: 'import',
          published_date: null,
        },
        {
          url: 'https://example.com/b',
          title: 'Bee',
          domain: 'example.com',
          source: 'import',
          published_date: '2024-05-01',
        },
      ],
      next_after: null,
    });
    expect((await runScout(['index', 'list', '--source', 'starter'], env)).stdout).toBe('no documents\n');
  });

  it('pages with --limit and --after, saying on stderr how to get the next page', async () => {
    const env = await indexWith(DOCS);
    const first = await runScout(['index', 'list', '--limit', '2'], env);
    expect(
      first.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]),
    ).toEqual(['https://blog.example.com/a', 'https://example.com/b']);
    expect(first.stderr).toBe('more: --after https://example.com/b\n');
    const next = await runScout(['index', 'list', '--limit', '2', '--after', 'https://example.com/b', '--json'], env);
    expect(JSON.parse(next.stdout)).toMatchObject({ documents: [{ url: 'https://other.org/c' }], next_after: null });
  });

  it('rejects bad flags with the usage (exit 2) and a missing index with exit 1', async () => {
    const env = await indexWith(DOCS);
    expect((await runScout(['index', 'list', '--source', 'web'], env)).stderr).toMatch(
      /^scout index list: --source must be one of import, starter, got "web"/,
    );
    expect((await runScout(['index', 'list', '--limit', '0'], env)).code).toBe(2);
    expect((await runScout(['index', 'list', '--domain', 'a b'], env)).code).toBe(2);
    const none = await runScout(['index', 'list'], {
      SCOUT_DATA_DIR: join(mkdtempSync(join(tmpdir(), 'scout-none-')), 'data'),
    });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('holds no Scout local index');
  });
});

describe('scout index remove', () => {
  it('removes documents by any spelling of their url, names the ones not there, and says what is left', async () => {
    const env = await indexWith(DOCS);
    const r = await runScout(
      ['index', 'remove', 'HTTPS://EXAMPLE.com:443/b', 'https://other.org/c', 'https://nowhere.test/x'],
      env,
    );
    expect(r).toEqual({
      code: 0,
      stdout: 'removed 2 of 3 documents; the index now holds 1 documents\n',
      stderr: 'not in the index: https://nowhere.test/x\n',
    });
    expect((await runScout(['index', 'list'], env)).stdout).toBe('https://blog.example.com/a\tAnt\timport\t-\n');
  });

  it('exits 1 when nothing was removed, and 2 for a url that cannot be one', async () => {
    const env = await indexWith(DOCS);
    expect(await runScout(['index', 'remove', 'https://nowhere.test/x'], env)).toMatchObject({
      code: 1,
      stderr: 'not in the index: https://nowhere.test/x\n',
    });
    const bad = await runScout(['index', 'remove', 'ftp://example.com/b'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^scout index remove: cannot remove ftp:\/\/example.com\/b: url must use http or https/);
  });
});
