import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexStarterCorpus } from '../../src/index/starter-corpus.ts';
import { doc, search, useTempIndexes } from './temp-index.ts';

const t = useTempIndexes();

function docsDir(): string {
  const dir = join(t.dir(), 'docs');
  mkdirSync(dir);
  writeFileSync(join(dir, 'api.md'), '# Scout API\n\nHow to call Scout.\n\n## Rate limits\n\nRequests per minute per key.\n\n## Budget\n\nMonthly search units.\n');
  writeFileSync(join(dir, 'operations.md'), '# Operations\n\n## Backups\n\nCopy the data folder.\n');
  writeFileSync(join(dir, 'notes.txt'), 'not markdown');
  return dir;
}

describe('indexStarterCorpus', () => {
  it('indexes one document per section with http urls and section titles', async () => {
    const index = t.open();
    expect(await indexStarterCorpus(index, docsDir())).toBe(4);
    const [hit] = index.search(search('rate limits'));
    expect(hit).toMatchObject({
      url: 'http://localhost:8080/docs/api.md#rate-limits',
      title: 'Scout API — Rate limits',
      domain: 'localhost',
    });
    expect(index.search(search('scout'))[0].url).toBe('http://localhost:8080/docs/api.md');
    expect(index.stats().sources).toEqual({ starter: 4 });
  });

  it('uses the base url given and replaces the previous starter corpus only', async () => {
    const index = t.open();
    const dir = docsDir();
    index.upsert([doc(1, { content: 'imported backups guide' })]);
    await indexStarterCorpus(index, dir);
    rmSync(join(dir, 'operations.md'));
    expect(await indexStarterCorpus(index, dir, { baseUrl: 'https://scout.example.net/' })).toBe(3);
    expect(index.search(search('backups')).map((h) => h.url)).toEqual(['https://example.com/doc-1']);
    expect(index.search(search('budget'))[0].url).toBe('https://scout.example.net/docs/api.md#budget');
    expect(index.stats().sources).toEqual({ import: 1, starter: 3 });
  });

  it('treats a missing folder as an empty corpus', async () => {
    const index = t.open();
    expect(await indexStarterCorpus(index, join(t.dir(), 'absent'))).toBe(0);
    expect(index.count()).toBe(0);
  });
});
