import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importJsonl } from '../../src/index/ingest-jsonl.ts';
import { search, useTempIndexes } from './temp-index.ts';

const t = useTempIndexes();

const line = (o: unknown): string => JSON.stringify(o);
const good = (n: number, extra: object = {}) =>
  line({ url: `https://site${n}.test/`, title: `Title ${n}`, content: `body text ${n} heron`, ...extra });

describe('importJsonl', () => {
  it('imports good lines and reports bad ones with their line numbers', async () => {
    const file = join(t.dir(), 'docs.jsonl');
    writeFileSync(
      file,
      `${[
        `\uFEFF${good(1)}`,
        '{"url": "https://x.test/", "title": ',
        line({ url: 'https://x.test/', title: 'T' }),
        '',
        good(2, { published_date: 'last tuesday' }),
        line({ url: 'javascript:alert(1)', title: 'T', content: 'C' }),
        '   ',
        good(3, { country: 'fr', language: 'fr', published_date: '2024-02-29' }),
        '[1,2]',
        good(4),
      ].join('\r\n')}\n`,
    );
    const bad: [number, string][] = [];
    const index = t.open();
    const result = await importJsonl(index, file, (n, reason) => bad.push([n, reason]));
    expect(result).toEqual({ imported: 3, skipped: 5 });
    expect(bad.map(([n]) => n)).toEqual([2, 3, 5, 6, 9]);
    expect(bad[0]?.[1]).toMatch(/^invalid JSON/);
    expect(bad.slice(1).map(([, r]) => r)).toEqual([
      'content must be a string',
      'published_date must be an ISO 8601 date (YYYY-MM-DD) or date-time',
      'url must use http or https',
      'each line must be a JSON object',
    ]);
    expect(index.count()).toBe(3);
  });

  it('re-importing a url replaces it; in one file the last line wins', async () => {
    const dir = t.dir();
    const index = t.open();
    writeFileSync(
      join(dir, 'a.jsonl'),
      [good(1, { content: 'first version ibis' }), good(1, { content: 'second version stork' })].join('\n'),
    );
    writeFileSync(join(dir, 'b.jsonl'), good(1, { content: 'third version crane' }));
    await importJsonl(index, join(dir, 'a.jsonl'), () => {});
    expect(index.search(search('ibis'))).toEqual([]);
    expect(index.search(search('stork'))).toHaveLength(1);
    await importJsonl(index, join(dir, 'b.jsonl'), () => {});
    expect(index.count()).toBe(1);
    expect(index.search(search('stork'))).toEqual([]);
    expect(index.search(search('crane'))[0]?.content).toBe('third version crane');
  });

  it('imports more lines than one batch', async () => {
    const file = join(t.dir(), 'many.jsonl');
    writeFileSync(file, Array.from({ length: 2500 }, (_, i) => good(i)).join('\n'));
    const index = t.open();
    expect(await importJsonl(index, file, () => {})).toEqual({ imported: 2500, skipped: 0 });
    expect(index.count()).toBe(2500);
    expect(index.search(search('heron', { limit: 20 }))).toHaveLength(20);
  });

  it('rejects a missing file', async () => {
    await expect(importJsonl(t.open(), join(t.dir(), 'nope.jsonl'), () => {})).rejects.toThrow(/ENOENT/);
  });
});
