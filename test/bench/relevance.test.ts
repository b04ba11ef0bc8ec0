import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const script = fileURLToPath(new URL('../../bench/relevance.ts', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A SciFact-shaped folder (BEIR's corpus.jsonl, queries-train.jsonl, qrels-train.tsv), written by the test. */
function scifactSet(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scout-relevance-'));
  dirs.push(dir);
  const topics = ['glacier melt rates', 'insulin resistance', 'coral bleaching', 'neutrino mass', 'soil bacteria'];
  const corpus = topics.map((t, i) => ({
    _id: `${100 + i}`,
    title: `A study of ${t}`,
    text: `We measured ${t} in detail. `.repeat(5),
  }));
  writeFileSync(join(dir, 'corpus.jsonl'), corpus.map((d) => JSON.stringify(d)).join('\n'));
  const claims = [
    { _id: '1', text: 'glacier melt rates rose', metadata: {} },
    { _id: '2', text: 'coral bleaching spreads', metadata: {} },
    { _id: '3', text: 'a claim nobody judged', metadata: {} },
  ];
  writeFileSync(join(dir, 'queries-train.jsonl'), claims.map((q) => JSON.stringify(q)).join('\n'));
  // Claim 2's judged document is not the one it names: a miss the scores must show.
  writeFileSync(join(dir, 'qrels-train.tsv'), 'query-id\tcorpus-id\tscore\n1\t100\t1\n2\t104\t1\n');
  return dir;
}

describe('bench:relevance', () => {
  it('asks every judged claim through POST /v1/search on both ranking paths and scores them', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script, scifactSet()], { timeout: 120_000 });
    expect(stdout).toContain('5 documents, 2 claims');
    const row = (name: string): number[] =>
      (stdout.split('\n').find((l) => l.startsWith(`| ${name}`)) ?? '')
        .split('|')
        .slice(2, 6)
        .map((c) => Number(c.trim()));
    for (const name of ['in-memory ranker', 'baseline: FTS5']) {
      const [ndcg, recall, ms, refused] = row(name);
      // Claim 1 finds its document first (1); claim 2 finds its judged one nowhere (0).
      expect(ndcg).toBeCloseTo(0.5, 4);
      expect(recall).toBeCloseTo(0.5, 4);
      expect(ms).toBeGreaterThan(0);
      expect(refused).toBe(0);
    }
    expect(stdout).toMatch(/nDCG@10 1\.000x, recall@20 1\.000x; top-10 agreement 1\.000/);
  });

  it('says how to call it when no folder is given', async () => {
    await expect(run(process.execPath, ['--import', 'tsx', script], { timeout: 60_000 })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('usage: npm run bench:relevance'),
    });
  });
});
