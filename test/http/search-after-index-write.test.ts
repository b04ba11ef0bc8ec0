import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { indexFile } from '../../src/compose.ts';
import { openLocalIndex } from '../../src/index/local-index.ts';
import type { SearchResponse } from '../../src/schemas/search.ts';
import { runScout } from '../helpers/cli.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'scout.mjs');

/** One quillwort page, under whatever title this version has. */
const page = (title: string): string =>
  `${JSON.stringify({ url: 'https://q.example/a', title, content: 'Quillwort grows at the edge of cold lakes, under water most of the year.' })}\n`;

async function titles(t: TestScout, query = 'quillwort'): Promise<string[]> {
  const res = await t.request<SearchResponse>('POST', '/v1/search', { body: { query } });
  expect(res.status).toBe(200);
  return res.body.results.filter((r: { type: string }) => r.type === 'organic').map((r: { title: string }) => r.title);
}

function runChild(args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: 'ignore' });
    // A hung child fails the test instead of the run; an import takes a second or two, far
    // below this, however busy the machine (issue 24).
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code ?? -1);
    });
  });
}

// The result cache (SCOUT_SEARCH_CACHE_TTL, on by default) once answered the old title for
// minutes after a re-import. Every write path must be seen by the very next search: this
// server's own writes, another connection in this process, and another process.
describe.each([
  ['ranked in memory', {}],
  ['ranked by FTS5', { SCOUT_INDEX_MEMORY_MB: '0' }],
])('a search after a write to the local index (%s)', (_label, env: Record<string, string>) => {
  let t: TestScout | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('sees a re-import by `scout index import` in another process', async () => {
    t = await startTestScout({ SCOUT_SEARCH_CACHE_TTL: '300', ...env });
    const file = join(t.dataDir, '..', 'page.jsonl');
    writeFileSync(file, page('Quillwort Old Title'));
    expect(await runChild(['index', 'import', file], { SCOUT_DATA_DIR: t.dataDir })).toBe(0);
    expect(await titles(t)).toEqual(['Quillwort Old Title']);
    writeFileSync(file, page('Quillwort New Title'));
    expect(await runChild(['index', 'import', file], { SCOUT_DATA_DIR: t.dataDir })).toBe(0);
    expect(await titles(t)).toEqual(['Quillwort New Title']);
  });

  it('sees a re-import through another connection and the server`s own writes', async () => {
    t = await startTestScout({ SCOUT_SEARCH_CACHE_TTL: '300', ...env });
    const file = join(t.dataDir, '..', 'page.jsonl');
    writeFileSync(file, page('Quillwort Old Title'));
    expect((await runScout(['index', 'import', file], { SCOUT_DATA_DIR: t.dataDir })).code).toBe(0);
    expect(await titles(t)).toEqual(['Quillwort Old Title']);

    // Another connection on the same file (what a second server on the same store is).
    const other = openLocalIndex(indexFile(t.dataDir), { memoryBudgetBytes: 0 });
    try {
      other.upsert([
        {
          url: 'https://q.example/a',
          title: 'Quillwort Second Title',
          content: 'Quillwort grows at the edge of cold lakes.',
        },
      ]);
    } finally {
      other.close();
    }
    expect(await titles(t)).toEqual(['Quillwort Second Title']);

    // This server's own index connection.
    t.scout.index.upsert([
      {
        url: 'https://q.example/a',
        title: 'Quillwort Third Title',
        content: 'Quillwort grows at the edge of cold lakes.',
      },
    ]);
    expect(await titles(t)).toEqual(['Quillwort Third Title']);
  });
});
