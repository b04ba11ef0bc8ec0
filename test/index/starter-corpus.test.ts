import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openLocalIndex } from '../../src/index/local-index.ts';
import { indexStarterCorpus } from '../../src/index/starter-corpus.ts';
import { doc, search, useTempIndexes } from './temp-index.ts';

const t = useTempIndexes();

function docsDir(): string {
  const dir = join(t.dir(), 'docs');
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'api.md'),
    '# Scout API\n\nHow to call Scout.\n\n## Rate limits\n\nRequests per minute per key.\n\n## Budget\n\nMonthly search units.\n',
  );
  writeFileSync(join(dir, 'operations.md'), '# Operations\n\n## Backups\n\nCopy the data folder.\n');
  writeFileSync(join(dir, 'notes.txt'), 'not markdown');
  return dir;
}

describe('indexStarterCorpus', () => {
  it('indexes one document per section at fixed scout.invalid urls, with section titles', async () => {
    const index = t.open();
    expect(await indexStarterCorpus(index, docsDir())).toBe(4);
    const [hit] = index.search(search('rate limits'));
    expect(hit).toMatchObject({
      url: 'https://scout.invalid/docs/api.md#rate-limits',
      title: 'Scout API — Rate limits',
      domain: 'scout.invalid',
    });
    expect(index.search(search('scout'))[0]?.url).toBe('https://scout.invalid/docs/api.md');
    expect(index.stats().sources).toEqual({ starter: 4 });
  });

  it('replaces the previous starter corpus only', async () => {
    const index = t.open();
    const dir = docsDir();
    index.upsert([doc(1, { content: 'imported backups guide' })]);
    await indexStarterCorpus(index, dir);
    rmSync(join(dir, 'operations.md'));
    expect(await indexStarterCorpus(index, dir)).toBe(3);
    expect(index.search(search('backups')).map((h) => h.url)).toEqual(['https://example.com/doc-1']);
    expect(index.search(search('budget'))[0]?.url).toBe('https://scout.invalid/docs/api.md#budget');
    expect(index.stats().sources).toEqual({ import: 1, starter: 3 });
  });

  // Issue 23: `scout mcp` starting on a server's folder rewrote the server's starter corpus.
  it('writes nothing when the docs are unchanged, and only the sections that changed', async () => {
    const dir = docsDir();
    const file = join(t.dir(), 'index.db');
    const first = openLocalIndex(file);
    const second = openLocalIndex(file);
    onTestFinished(() => (first.close(), second.close()));
    await indexStarterCorpus(first, dir);
    const rows = () => first.list({ limit: 100, source: 'starter' });
    const before = rows();
    const version = first.version();
    // The second connection to the file starts like another process would.
    expect(await indexStarterCorpus(second, dir)).toBe(4);
    expect(first.version()).toBe(version);
    expect(rows()).toEqual(before);
    writeFileSync(join(dir, 'operations.md'), '# Operations\n\n## Backups\n\nCopy the data folder while Scout runs.\n');
    await indexStarterCorpus(second, dir);
    expect(first.version()).not.toBe(version);
    expect(first.search(search('backups'))[0]?.content).toContain('while Scout runs');
  });

  it('treats a missing folder as an empty corpus', async () => {
    const index = t.open();
    expect(await indexStarterCorpus(index, join(t.dir(), 'absent'))).toBe(0);
    expect(index.count()).toBe(0);
  });
});
