import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLocalIndex, type LocalIndex } from '../../../src/index/local-index.ts';
import { corpusLines, rng } from '../../../bench/make-corpus.ts';
import { search, useTempIndexes } from '../temp-index.ts';
import { breathe } from '../../helpers/breathe.ts';
import { defined } from '../../helpers/defined.ts';
import { expectSameRanking, randomSearch } from './ranking-checks.ts';

const t = useTempIndexes();

function pair(docs: number, seed: number): { memory: LocalIndex; sql: LocalIndex; words: string[] } {
  const dir = t.dir();
  const file = join(dir, 'index.db');
  const memory = openLocalIndex(file, { cacheSize: 0 });
  const rows = [...corpusLines({ docs, seed })].map((l) => JSON.parse(l));
  for (let i = 0; i < rows.length; i += 500) memory.upsert(rows.slice(i, i + 500));
  const sql = openLocalIndex(file, { cacheSize: 0, memoryBudgetBytes: 0 });
  const words = rows.slice(0, 60).flatMap((r) => `${r.title} ${r.content.slice(0, 300)}`.toLowerCase().split(/\s+/));
  expect(memory.syncRanker()).toBe(true);
  return { memory, sql, words };
}

// Builds and searches indexes of thousands of documents: up to 4 s on a quiet 2-core machine;
// a busy one takes several times that, and the limit is far above it (issue 24). Speed is bench/index.ts.
describe('in-memory ranker vs FTS5 bm25()', { timeout: 120_000 }, () => {
  it('ranks 400 random searches (words, phrases, filters, pages) as the SQL path does', async () => {
    const { memory, sql, words } = pair(1500, 11);
    const rand = rng(5);
    let nonEmpty = 0;
    for (let i = 0; i < 400; i++) {
      if (i % 20 === 0) await breathe();
      const q = randomSearch(words, rand);
      const m = memory.search(q);
      const s = sql.search(q);
      if (s.length > 0) nonEmpty++;
      expectSameRanking(m, s, JSON.stringify(q));
    }
    expect(memory.rankerStatus()).toEqual({ state: 'ready', documents: 1500 });
    expect(nonEmpty).toBeGreaterThan(300);
  });

  it('ranks words FTS5 splits into phrases (a combining mark between letters) as the SQL path does', () => {
    const { memory, sql, words } = pair(800, 12);
    const rand = rng(6);
    let nonEmpty = 0;
    for (let i = 0; i < 150; i++) {
      const q = randomSearch(words, rand);
      // Glue neighbours with U+0305, which FTS5's unicode61 takes for a separator.
      const glued = { ...q, query: q.query.replace(/ (?=\S)/g, (m) => (rand() < 0.6 ? '\u0305' : m)) };
      const m = memory.search(glued);
      if (m.length > 0) nonEmpty++;
      expectSameRanking(m, sql.search(glued), JSON.stringify(glued));
    }
    expect(memory.rankerStatus().state).toBe('ready');
    expect(nonEmpty).toBeGreaterThan(50);
  });

  it('ranks like the SQL path with common words, unicode, title hits and the proximity bonus', () => {
    const dir = t.dir();
    const file = join(dir, 'index.db');
    const memory = openLocalIndex(file, { cacheSize: 0 });
    const filler = 'lorem ipsum dolor sit amet '.repeat(3);
    memory.upsert([
      { url: 'https://a.test/1', title: 'Bank of America', content: `${filler} the bank of america opened` },
      { url: 'https://a.test/2', title: 'Banks', content: `bank ${filler} america ${filler} naïve café` },
      { url: 'https://a.test/3', title: 'Café culture', content: `${filler} cafe naive résumé running runs` },
      { url: 'https://a.test/4', title: 'Skyyed', content: `${filler} the the the one all of it` },
      { url: 'https://a.test/5', title: '東京', content: `東京タワー ${filler} America bank` },
    ]);
    const sql = openLocalIndex(file, { cacheSize: 0, memoryBudgetBytes: 0 });
    const split = [
      'bank\u0305of\u0305america',
      'lorem\u0305ipsum dolor',
      'of\u0305america bank',
      'ipsum\u0305lorem',
      '\u19b0 bank',
      '\u19b0 \u19b0',
      'bank \u19b0 america',
    ];
    for (const q of [
      'bank of america',
      'bank america',
      'cafe',
      'café naïve',
      'running',
      'run',
      'the one',
      'skyyed',
      '東京タワー',
      'america bank lorem',
      'x',
      ...split,
    ]) {
      expectSameRanking(memory.search(search(q)), sql.search(search(q)), q);
    }
    // Words FTS5 splits are its phrases: found where the parts stand side by side.
    expect(memory.search(search('bank\u0305of\u0305america')).map((h) => h.url)).toEqual(['https://a.test/1']);
    expect(memory.search(search('dolor\u0305sit'))).toHaveLength(5);
    expect(memory.rankerStatus().state).toBe('ready');
  });
});

describe('in-memory ranker follows the index file', () => {
  it("sees another connection's writes and deletes on the next search", () => {
    const dir = t.dir();
    const file = join(dir, 'index.db');
    const server = openLocalIndex(file, { cacheSize: 0 });
    server.upsert([{ url: 'https://a.test/1', title: 'Herons', content: 'grey herons wade' }]);
    expect(server.search(search('herons'))).toHaveLength(1);
    expect(server.rankerStatus().state).toBe('ready');
    const cli = openLocalIndex(file);
    cli.upsert([
      { url: 'https://a.test/1', title: 'Egrets', content: 'white egrets wade' },
      { url: 'https://a.test/2', title: 'Storks', content: 'storks wade too' },
    ]);
    expect(server.search(search('herons'))).toEqual([]);
    expect(
      server
        .search(search('wade'))
        .map((h) => h.url)
        .sort(),
    ).toEqual(['https://a.test/1', 'https://a.test/2']);
    cli.replaceSource('import', []);
    expect(server.search(search('wade'))).toEqual([]);
    expect(server.rankerStatus()).toEqual({ state: 'ready', documents: 0 });
    cli.close();
  });

  it('catches up with a large change in the background while FTS5 answers, then ranks in memory again', async () => {
    const dir = t.dir();
    const file = join(dir, 'index.db');
    const server = openLocalIndex(file, { cacheSize: 0 });
    server.upsert([{ url: 'https://a.test/0', title: 'Start', content: 'first document' }]);
    expect(server.search(search('first'))).toHaveLength(1);
    const cli = openLocalIndex(file);
    const rows = [...corpusLines({ docs: 1200, seed: 9 })].map((l) => JSON.parse(l));
    cli.upsert(rows);
    const word = defined((rows[0].title as string).split(' ')[0], 'a first word');
    const sql = openLocalIndex(file, { cacheSize: 0, memoryBudgetBytes: 0 });
    // Past the synchronous limit: this search is FTS5's, the ranker catches up behind it.
    expectSameRanking(server.search(search(word)), sql.search(search(word)), word);
    expect(server.rankerStatus().state).not.toBe('ready');
    for (let i = 0; i < 200 && server.rankerStatus().state !== 'ready'; i++) await new Promise((r) => setImmediate(r));
    expect(server.rankerStatus()).toEqual({ state: 'ready', documents: 1201 });
    expectSameRanking(server.search(search(word)), sql.search(search(word)), word);
    cli.close();
  });

  it('builds a large index in the background from start-up, FTS5 answering until it says it is ready', async () => {
    const dir = t.dir();
    const file = join(dir, 'index.db');
    const cli = openLocalIndex(file);
    const rows = [...corpusLines({ docs: 800, seed: 4 })].map((l) => JSON.parse(l));
    cli.upsert(rows);
    cli.close();
    const told: { state: string; documents: number; ms?: number }[] = [];
    const server = openLocalIndex(file, { cacheSize: 0, onRankerChange: (s) => told.push(s) });
    server.startRanker();
    expect(server.rankerStatus().state).toBe('building');
    const title = rows[3].title as string;
    expect(server.search(search(title)).map((h) => h.url)).toContain(rows[3].url);
    for (let i = 0; i < 200 && server.rankerStatus().state !== 'ready'; i++) await new Promise((r) => setImmediate(r));
    expect(server.rankerStatus()).toEqual({ state: 'ready', documents: 800 });
    expect(told).toEqual([{ state: 'ready', documents: 800, ms: expect.any(Number) }]);
    server.close();
  });

  it('past its memory budget spills postings to disk and still ranks as the SQL path does', () => {
    const dir = t.dir();
    const file = join(dir, 'index.db');
    const tight = openLocalIndex(file, { cacheSize: 0, memoryBudgetBytes: 64 * 1024, spillDir: dir });
    const rows = [...corpusLines({ docs: 1200, seed: 17 })].map((l) => JSON.parse(l));
    for (let i = 0; i < rows.length; i += 400) tight.upsert(rows.slice(i, i + 400));
    expect(tight.syncRanker()).toBe(true);
    const memory = tight.rankerMemory()!;
    expect(memory.spilledBytes).toBeGreaterThan(0);
    const sql = openLocalIndex(file, { cacheSize: 0, memoryBudgetBytes: 0 });
    const words = rows.slice(0, 60).flatMap((r) => `${r.title} ${r.content.slice(0, 300)}`.toLowerCase().split(/\s+/));
    const rand = rng(15);
    for (let i = 0; i < 150; i++) {
      const q = randomSearch(words, rand);
      expectSameRanking(tight.search(q), sql.search(q), JSON.stringify(q));
    }
    expect(tight.rankerStatus()).toEqual({ state: 'ready', documents: 1200 });
    tight.close();
    // The spill file lives in a private directory that goes with the ranker.
    expect(readdirSync(dir).filter((f) => f.startsWith('scout-ranker-'))).toEqual([]);
  });
});
