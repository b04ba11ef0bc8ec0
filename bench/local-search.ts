/**
 * In-process timing of LocalIndex.search() on a synthetic corpus:
 *   npx tsx bench/local-search.ts [--docs 10000]
 * Builds a temporary index from bench/make-corpus.ts, then times a set of queries ranked by
 * FTS5 with the result cache off (every search ranks) and on, and ranked by the in-memory
 * ranker, next to a baseline measured in the same run: a primary-key lookup of one stored row.
 * "cold"/"warm": first and second pass over the same distinct queries (the second finds
 * the document frequencies of their terms remembered; results are not cached).
 * Last, repeated searches through the search backend with its result cache off and on
 * (the cache keys answers by the index's revision, so it is exact; this is what it saves).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { importJsonl } from '../src/index/ingest-jsonl.ts';
import { openLocalIndex, type LocalIndex, type LocalSearch } from '../src/index/local-index.ts';
import { createLocalProvider } from '../src/providers/local.ts';
import { createSearchBackend } from '../src/providers/registry.ts';
import { corpusLines, rng, writeCorpus } from './make-corpus.ts';
import { defined } from '../test/helpers/defined.ts';

const QUERIES = [
  'search engine performance',
  'how does the cache of a database index work',
  'climate water energy policy',
  'kato pekatada',
  'music',
  '"quoted" AND (weird) -syntax* NEAR/3 ^title:x',
];

function perCallMicros(fn: () => unknown, minMs = 300): number {
  fn();
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    for (let i = 0; i < 10; i++) fn();
    n += 10;
  }
  return ((performance.now() - start) / n) * 1000;
}

/** 2000 distinct queries of 2-4 title words, as bench/search.ts sends them. */
function titleWordQueries(): LocalSearch[] {
  const words = [...corpusLines({ docs: 200, seed: 7 })].flatMap((l) =>
    (JSON.parse(l).title as string).toLowerCase().split(' '),
  );
  const rand = rng(99);
  return Array.from({ length: 2000 }, () => ({
    query: Array.from({ length: 2 + Math.floor(rand() * 3) }, () => words[Math.floor(rand() * words.length)]).join(' '),
    limit: 10,
    includeDomains: [],
    excludeDomains: [],
  }));
}

function reportMix(index: LocalIndex, label: string, baseline: number): void {
  const qs = titleWordQueries();
  for (const pass of ['cold', 'warm']) {
    const start = performance.now();
    for (const q of qs) index.search(q);
    const us = ((performance.now() - start) / qs.length) * 1000;
    console.log(
      `${label.padEnd(8)} ${us.toFixed(1).padStart(9)} µs  ×${(us / baseline).toFixed(0).padStart(5)} baseline  mean of 2000 distinct title-word queries (${pass})`,
    );
  }
}

function report(index: LocalIndex, label: string, baseline: number): void {
  for (const query of QUERIES) {
    const q: LocalSearch = { query, limit: 10, includeDomains: [], excludeDomains: [] };
    const us = perCallMicros(() => index.search(q));
    console.log(
      `${label.padEnd(8)} ${us.toFixed(1).padStart(9)} µs  ×${(us / baseline).toFixed(0).padStart(5)} baseline  ${query}`,
    );
  }
  const filtered: LocalSearch = {
    query: 'search engine performance',
    limit: 10,
    includeDomains: ['example.com'],
    excludeDomains: ['blog.example.com'],
    startDate: '2020-01-01',
    country: 'US',
  };
  const us = perCallMicros(() => index.search(filtered));
  console.log(
    `${label.padEnd(8)} ${us.toFixed(1).padStart(9)} µs  ×${(us / baseline).toFixed(0).padStart(5)} baseline  (with all filters)`,
  );
}

/** The same few searches again and again through the backend, result cache off and on. */
async function reportBackendCache(index: LocalIndex, label: string): Promise<void> {
  const asked = QUERIES.slice(0, 4).map((query) => ({
    query,
    maxResults: 10,
    includeDomains: [],
    excludeDomains: [],
    depth: 'basic' as const,
  }));
  const perSearch: number[] = [];
  for (const cacheTtlMs of [0, 300_000]) {
    const backend = createSearchBackend([createLocalProvider(index)], { cacheTtlMs });
    for (const q of asked) await backend.search(q);
    const n = 3000;
    const start = performance.now();
    for (let i = 0; i < n; i++) await backend.search(defined(asked[i % asked.length], 'a search'));
    perSearch.push(((performance.now() - start) / n) * 1000);
  }
  const [off, on] = [
    defined(perSearch[0], 'the time with the cache off'),
    defined(perSearch[1], 'the time with it on'),
  ];
  console.log(
    `${label.padEnd(8)} repeated searches via the backend: cache off ${off.toFixed(1)} µs, on ${on.toFixed(1)} µs (×${(off / on).toFixed(1)})`,
  );
}

const docsFlag = process.argv.indexOf('--docs');
const docs = docsFlag >= 0 ? Number(process.argv[docsFlag + 1]) : 10_000;
const dir = mkdtempSync(join(tmpdir(), 'scout-bench-'));
try {
  const corpus = join(dir, 'corpus.jsonl');
  const file = join(dir, 'index.db');
  await writeCorpus(corpus, { docs, seed: 42 });
  const t = performance.now();
  const building = openLocalIndex(file);
  const { imported } = await importJsonl(building, corpus, () => {});
  building.optimize();
  building.close();
  console.log(`indexed ${imported} documents in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const db = new Database(file, { readonly: true });
  const lookup = db.prepare('SELECT title, content FROM document_texts WHERE id = ?');
  const baseline = perCallMicros(() => lookup.get(1 + Math.floor(Math.random() * imported)));
  db.close();
  console.log(`baseline ${baseline.toFixed(1).padStart(9)} µs  (one primary-key row lookup)`);

  const uncached = openLocalIndex(file, { cacheSize: 0, memoryBudgetBytes: 0 });
  report(uncached, 'fts5', baseline);
  reportMix(uncached, 'fts5', baseline);
  uncached.close();
  const cached = openLocalIndex(file, { memoryBudgetBytes: 0 });
  report(cached, 'cached', baseline);
  await reportBackendCache(cached, 'fts5');
  cached.close();
  const memory = openLocalIndex(file, { cacheSize: 0 });
  const t0 = performance.now();
  memory.syncRanker();
  console.log(`in-memory ranker built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  report(memory, 'memory', baseline);
  reportMix(memory, 'memory', baseline);
  await reportBackendCache(memory, 'memory');
  memory.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
