/**
 * Search quality of the local index, measured from outside: SciFact (BEIR; 5,183 abstracts
 * and 809 training claims with judged relevant abstracts, its folder's README gives the
 * protocol) imported into a fresh Scout, each claim asked through `POST /v1/search` with
 * `max_results` 20, scored by nDCG@10 and recall@20 (bench/relevance-metric.ts).
 *
 *   npm run bench:relevance -- <scifact dir> [--claims N]
 *
 * Two ranking paths in the same run: the in-memory ranker (what a server uses) and, as the
 * baseline, SQLite FTS5's bm25() with the same proximity rerank (SCOUT_INDEX_MEMORY_MB=0),
 * both exact today, with how many of their top 10s agree. The corpus and claims are read from the folder given;
 * evaluation data is not shipped.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchScout, median } from './load-kit.ts';
import { ndcgAt, parseQrels, recallAt, topOverlap } from './relevance-metric.ts';

const DOC_URL = 'https://scifact.example/doc/';

interface Claim {
  id: string;
  text: string;
}

interface RankerRun {
  name: string;
  /** Each claim's ranked document ids, in the claims' order. */
  ranked: string[][];
  /** Milliseconds per search, as the client saw them. */
  ms: number[];
  refused: number;
}

function jsonLines<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

async function runRanker(
  name: string,
  env: Record<string, string>,
  rows: object[],
  claims: Claim[],
): Promise<RankerRun> {
  const { scout, key, url, root } = await benchScout(rows, env);
  const run: RankerRun = { name, ranked: [], ms: [], refused: 0 };
  try {
    for (const claim of claims) {
      const start = performance.now();
      const res = await fetch(`${url}/v1/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: claim.text, max_results: 20 }),
      });
      const body = (await res.json()) as { results?: { url: string }[] };
      run.ms.push(performance.now() - start);
      if (!res.ok) run.refused += 1;
      run.ranked.push((body.results ?? []).map((r) => r.url.slice(DOC_URL.length)));
    }
  } finally {
    await scout.close();
    rmSync(root, { recursive: true, force: true });
  }
  return run;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { claims: { type: 'string' } } });
  const dir = positionals[0];
  if (dir === undefined) {
    console.error('usage: npm run bench:relevance -- <scifact dir> [--claims N]');
    process.exit(2);
  }
  const qrels = parseQrels(readFileSync(join(dir, 'qrels-train.tsv'), 'utf8'));
  const claims = jsonLines<{ _id: string; text: string }>(join(dir, 'queries-train.jsonl'))
    .filter((q) => qrels.has(q._id))
    .slice(0, values.claims === undefined ? undefined : Number(values.claims))
    .map((q) => ({ id: q._id, text: q.text }));
  const rows = jsonLines<{ _id: string; title: string; text: string }>(join(dir, 'corpus.jsonl')).map((d) => ({
    url: `${DOC_URL}${d._id}`,
    title: d.title.trim() === '' ? d._id : d.title,
    content: d.text.trim() === '' ? d.title : d.text,
  }));
  console.log(`${rows.length} documents, ${claims.length} claims, each asked through POST /v1/search (max_results 20)`);
  const runs = [
    await runRanker('in-memory ranker', {}, rows, claims),
    await runRanker(
      'baseline: FTS5 bm25() and rerank (SCOUT_INDEX_MEMORY_MB=0)',
      { SCOUT_INDEX_MEMORY_MB: '0' },
      rows,
      claims,
    ),
  ];
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const scores = runs.map((r) => ({
    ndcg: mean(claims.map((c, i) => ndcgAt(10, r.ranked[i] ?? [], qrels.get(c.id) ?? new Map()))),
    recall: mean(claims.map((c, i) => recallAt(20, r.ranked[i] ?? [], qrels.get(c.id) ?? new Map()))),
  }));
  console.log('\n| ranker | nDCG@10 | recall@20 | median ms per search | refused |');
  console.log('|---|---|---|---|---|');
  runs.forEach((r, i) => {
    const s = scores[i] ?? { ndcg: 0, recall: 0 };
    console.log(
      `| ${r.name} | ${s.ndcg.toFixed(4)} | ${s.recall.toFixed(4)} | ${median(r.ms).toFixed(2)} | ${r.refused} |`,
    );
  });
  const [a, b] = scores;
  const [ra, rb] = runs;
  if (a !== undefined && b !== undefined && ra !== undefined && rb !== undefined) {
    console.log(
      `\nin memory / baseline: nDCG@10 ${(a.ndcg / b.ndcg).toFixed(3)}x, recall@20 ${(a.recall / b.recall).toFixed(3)}x; top-10 agreement ${mean(claims.map((_, i) => topOverlap(10, ra.ranked[i] ?? [], rb.ranked[i] ?? []))).toFixed(3)}`,
    );
  }
}

await main();
