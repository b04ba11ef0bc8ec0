/**
 * The local index at scale, every figure beside its baselines from the same run:
 *   npm run bench:index -- <pages dir>... [--sizes 10000,100000,1000000] [--queries 300]
 *     [--budget-mb 4096] [--spill-mb 256] [--old-max 100000] [--fts-queries 100]
 * <pages dir>: extraction development sets (a folder with ground-truth.json and html/, as
 * bench:extract takes); their main text gives the vocabulary (bench/index-corpus.ts).
 *
 * Per collection size N:
 * - import: `scout index import` (the CLI, a child process) writes a generated JSONL file of
 *   N documents of ~3 KB into a fresh index while this process serves searches on the same
 *   file, its in-memory ranker following the writes as a running server's does. Printed:
 *   documents/s until every row is committed, and until the command exits (it ends with
 *   FTS5's optimize); how far the ranker trailed the import (searchable documents) and how
 *   long it took to catch up after it.
 * - RAM: the ranker's own estimate of its structures and the measured growth of this
 *   process's heap and array buffers (after a GC) over the text size; process RSS.
 * - latency of LocalIndex.search() (ranking, the page's rows and snippets; no HTTP) for 1-,
 *   2- and 5-word queries, p50/p99, ranked in memory vs FTS5's bm25() (the SQL path, the
 *   result cache off) on the same file, and how many top-10s agree.
 * - the previous ranker (test/index/ranker/exhaustive-ranker.ts, which the compact one replaced), up to --old-max
 *   documents (at 1M it needs ~5x the text in RAM): build time, RAM, rank() p50/p99 against
 *   the new ranker's rank() on the same queries.
 * - at the largest size, the ranker held to --spill-mb: its RAM, the postings it moved to
 *   disk, and rank() p50/p99 beside the same ranker in memory.
 * --ranker-only measures the ranker alone (see rankerOnly at the end).
 * Last, how each figure grows from the smallest size to the largest. Goals at 1M: p50 ≤ 5 ms,
 * p99 ≤ 50 ms, RAM ≤ 1.5x text, import ≥ 5,000 documents/s.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain .mjs script without types
import { ensureFreshDist } from '../scripts/build.mjs';
import { generateDocs, generateQueries, loadVocabulary, type Vocabulary } from './index-corpus.ts';
import { defined } from '../test/helpers/defined.ts';
import { openLocalIndex, openIndexDatabase, type LocalIndex } from '../src/index/local-index.ts';
import { planSearch } from '../src/index/memory-search.ts';
import { ExhaustiveRanker } from '../test/index/ranker/exhaustive-ranker.ts';
import type { RankQuery } from '../src/index/ranker/ranker-types.ts';
import type { RankerDocument } from '../src/store/index-rows.ts';
import { MemoryRanker } from '../src/index/ranker/memory-ranker.ts';

const args = process.argv.slice(2);
const flag = (name: string, def: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? defined(args[i + 1], `a value after --${name}`) : def;
};
const dirs = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (dirs.length === 0) {
  console.error(
    'usage: npm run bench:index -- <pages dir>... [--sizes 10000,100000,1000000] [--queries 300] [--budget-mb 1024]',
  );
  process.exit(2);
}
const sizes = flag('sizes', '10000,100000,1000000').split(',').map(Number);
const queriesPer = Number(flag('queries', '300'));
const ftsQueries = Number(flag('fts-queries', '100'));
const budgetMb = Number(flag('budget-mb', '4096'));
const spillMb = Number(flag('spill-mb', '256'));
const oldMax = Number(flag('old-max', '100000'));
const WORDS = [1, 2, 5];
/** What `m` holds for `w`-word queries: every such record here has one for each of WORDS. */
const forWords = <T>(m: Record<number, T>, w: number): T => defined(m[w], `the figure for ${w}-word queries`);
const root = fileURLToPath(new URL('..', import.meta.url));
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('run with node --expose-gc (npm run bench:index does)');
  process.exit(2);
}

const mb = (b: number): string => `${(b / 1048576).toFixed(0)} MB`;
const pct = (sorted: number[], p: number): number =>
  defined(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))], `the ${p} quantile`);
const heap = (): number => {
  // Twice: array buffers freed by the first collection are released by the second.
  gc!();
  gc!();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

interface Latency {
  p50: number;
  p99: number;
}

function time(fn: (i: number) => unknown, n: number): Latency {
  fn(0);
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn(i);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: pct(ms, 0.5), p99: pct(ms, 0.99) };
}

interface Row {
  /** A restart on the imported file: first answer, whether the ranker answered it, ranker ready. */
  restart: { firstAnswerMs: number; inMemoryAtFirst: boolean; readyMs: number };
  n: number;
  textBytes: number;
  importRows: number;
  importAll: number;
  trail: number;
  catchUpMs: number;
  ramEstimate: number;
  rss: number;
  spilled: number;
  mem: Record<number, Latency>;
  /** The same queries asked a second time. */
  again: Record<number, Latency>;
  fts: Record<number, Latency>;
  agree: string;
  /** The rankers built alone from the same rows: the compact one always, the previous one up to --old-max. */
  old: {
    newRank: Record<number, Latency>;
    /** rank() without the proximity bonus (pruned and exhaustive timed together), and postings read. */
    noProximity: Record<number, Latency & { exhaustive: Latency; decoded: number; postings: number }>;
    newBuildMs: number;
    newRam: number;
    previous?: { buildMs: number; ram: number; rank: Record<number, Latency> };
    spilled?: { ram: number; disk: number; buildMs: number; rank: Record<number, Latency> };
  };
}

async function writeCorpus(v: Vocabulary, file: string, n: number): Promise<void> {
  const out = createWriteStream(file);
  for (const doc of generateDocs(v, n, 42)) if (!out.write(`${JSON.stringify(doc)}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

/** Runs `scout index import` in a child while `index` serves searches; returns the import's figures. */
async function importWhileSearching(dir: string, corpus: string, index: LocalIndex, n: number, probe: string[]) {
  const start = performance.now();
  const child = spawn(process.execPath, [join(root, 'bin/scout.mjs'), 'index', 'import', corpus], {
    env: { ...process.env, SCOUT_DATA_DIR: dir, SCOUT_STARTER_CORPUS: 'false', SCOUT_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = once(child, 'exit');
  let rowsAt = 0;
  let trail = 0;
  let done = false;
  void exited.then(() => (done = true));
  for (let i = 0; !done; i++) {
    // A search a tick, as a server would see: it lets the ranker apply what was committed.
    firstTen(index, defined(probe[i % probe.length], 'a probe'));
    const count = index.count();
    if (rowsAt === 0 && count >= n) rowsAt = performance.now();
    trail = Math.max(trail, count - index.rankerStatus().documents);
    await sleep(20);
  }
  const [code] = await exited;
  if (code !== 0) throw new Error(`scout index import exited with ${code}`);
  const end = performance.now();
  if (rowsAt === 0) rowsAt = end;
  // Catch up: searches keep coming until the ranker holds every document and is ready.
  for (let i = 0; index.rankerStatus().state !== 'ready' || index.rankerStatus().documents < n; i++) {
    firstTen(index, defined(probe[i % probe.length], 'a probe'));
    await new Promise((r) => setImmediate(r));
  }
  index.syncRanker();
  return {
    importRows: n / ((rowsAt - start) / 1000),
    importAll: n / ((end - start) / 1000),
    trail,
    catchUpMs: performance.now() - end,
  };
}

/** The first page of 10 hits of `query`, no filters: the search every figure here times. */
const firstTen = (index: LocalIndex, query: string) =>
  index.search({ query, limit: 10, includeDomains: [], excludeDomains: [] });

/** The index file in `dir`, opened as a server opens it (the result cache off: every search ranks). */
const serverIndex = (dir: string): LocalIndex =>
  openLocalIndex(join(dir, 'index.db'), { cacheSize: 0, memoryBudgetBytes: budgetMb * 1048576, spillDir: dir });

/**
 * A server restarting on the file `importWhileSearching` wrote: from opening it to its first
 * answer, and to its ranker being ready (rebuilt from the file in the background, a batch
 * per event-loop turn, as a server's is; FTS5 answers until then).
 */
async function measureRestart(dir: string, query: string): Promise<Row['restart']> {
  const started = performance.now();
  const index = serverIndex(dir);
  try {
    // As a server does when it opens its storage (src/compose/assemble-storage.ts).
    index.startRanker();
    firstTen(index, query);
    const firstAnswerMs = performance.now() - started;
    const inMemoryAtFirst = index.rankerStatus().state === 'ready';
    while (index.rankerStatus().state !== 'ready') await new Promise((r) => setImmediate(r));
    return { firstAnswerMs, inMemoryAtFirst, readyMs: performance.now() - started };
  } finally {
    index.close();
  }
}

const rankQuery = (query: string, wanted = 10): RankQuery | undefined => {
  const plan = planSearch({ query, limit: wanted, includeDomains: [], excludeDomains: [] });
  return (
    plan && {
      terms: plan.terms,
      spans: plan.spans,
      filters: plan.filters,
      wanted,
      proximityWeight: 0.25,
      rerankWindow: 100,
    }
  );
};

async function measure(v: Vocabulary, n: number): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'scout-bench-index-'));
  try {
    const corpus = join(dir, 'corpus.jsonl');
    await writeCorpus(v, corpus, n);
    const queries = Object.fromEntries(WORDS.map((w) => [w, generateQueries(v, w, queriesPer, 100 + w)])) as Record<
      number,
      string[]
    >;
    const index = serverIndex(dir);
    index.startRanker();
    const imp = await importWhileSearching(dir, corpus, index, n, forWords(queries, 2));
    const memory = index.rankerMemory()!;
    const textBytes = index.stats().textBytes;
    const search = (q: string) => firstTen(index, q);
    const mem: Record<number, Latency> = {};
    const again: Record<number, Latency> = {};
    for (const w of WORDS) {
      const asked = forWords(queries, w);
      mem[w] = time((i) => search(defined(asked[i], 'a query')), queriesPer);
      // The same queries again: phrase counts are remembered (until compaction) across writes.
      again[w] = time((i) => search(defined(asked[i], 'a query')), queriesPer);
    }

    const sql = openLocalIndex(join(dir, 'index.db'), { cacheSize: 0, memoryBudgetBytes: 0 });
    const fts: Record<number, Latency> = {};
    const nFts = n >= 1_000_000 ? Math.min(ftsQueries, queriesPer) : queriesPer;
    let same = 0;
    let compared = 0;
    for (const w of WORDS) {
      const asked = forWords(queries, w);
      fts[w] = time((i) => firstTen(sql, defined(asked[i], 'a query')), nFts);
      for (let i = 0; i < Math.min(50, nFts); i++) {
        const query = defined(asked[i], 'a query');
        const a = search(query)
          .map((h) => h.url)
          .join(' ');
        const b = firstTen(sql, query)
          .map((h) => h.url)
          .join(' ');
        compared++;
        if (a === b) same++;
      }
    }
    sql.close();

    let old: Row['old'];
    {
      // Both rankers built from the same rows in this process: build time, RAM, rank() alone.
      const build = <R extends { add(d: RankerDocument): void }>(
        make: () => R,
      ): { ranker: R; ms: number; ram: number } => {
        const before = heap();
        const t = performance.now();
        const ranker = make();
        const db = openIndexDatabase(join(dir, 'index.db'));
        const rows = db.prepare(
          `SELECT d.id, d.url, d.domain, d.published_date AS publishedDate, d.published_day AS day, d.country, t.title, t.content
           FROM documents d JOIN document_texts t ON t.id = d.id`,
        );
        for (const row of rows.iterate() as IterableIterator<RankerDocument>) ranker.add(row);
        db.close();
        // As a server's ranker does at the end of a build.
        (ranker as { trim?: () => void }).trim?.();
        const ms = performance.now() - t;
        return { ranker, ms, ram: heap() - before };
      };
      const now = build(() => new MemoryRanker({ keepTexts: false }));
      const newRank: Record<number, Latency> = {};
      const noProximity: Row['old']['noProximity'] = {};
      for (const w of WORDS) {
        const qs = forWords(queries, w)
          .map((q) => rankQuery(q))
          .filter((q): q is RankQuery => q !== undefined);
        newRank[w] = time((i) => now.ranker.rank(defined(qs[i % qs.length], 'a query')), qs.length);
        // BM25 alone (no phrase bonus): what pruning does, and the share of postings it reads.
        let decoded = 0;
        let postings = 0;
        const pruned = time((i) => {
          now.ranker.rank({ ...defined(qs[i % qs.length], 'a query'), proximityWeight: 0 });
          decoded += now.ranker.lastDecoded;
        }, qs.length);
        const exhaustive = time((i) => {
          now.ranker.rank({ ...defined(qs[i % qs.length], 'a query'), proximityWeight: 0 }, false);
          postings += now.ranker.lastDecoded;
        }, qs.length);
        noProximity[w] = { ...pruned, exhaustive, decoded, postings };
      }
      const newBuildMs = now.ms;
      const newRam = now.ram;
      now.ranker.close();
      old = { newRank, noProximity, newBuildMs, newRam };
      if (spillMb > 0 && n === Math.max(...sizes)) {
        // The same ranker held to a small budget: sealed postings read back from its spill file.
        const tight = build(
          () => new MemoryRanker({ keepTexts: false, budgetBytes: spillMb * 1048576, spillDir: dir }),
        );
        const rank: Record<number, Latency> = {};
        for (const w of WORDS) {
          const qs = forWords(queries, w)
            .map((q) => rankQuery(q))
            .filter((q): q is RankQuery => q !== undefined);
          rank[w] = time((i) => tight.ranker.rank(defined(qs[i % qs.length], 'a query')), qs.length);
        }
        old = {
          ...old,
          spilled: { ram: tight.ram, disk: tight.ranker.memory().spilledBytes, buildMs: tight.ms, rank },
        };
        tight.ranker.close();
      }
      if (n <= oldMax) {
        const previous = build(() => new ExhaustiveRanker());
        const rank: Record<number, Latency> = {};
        for (const w of WORDS) {
          const qs = forWords(queries, w)
            .map((q) => rankQuery(q))
            .filter((q): q is RankQuery => q !== undefined);
          rank[w] = time((i) => previous.ranker.rank(defined(qs[i % qs.length], 'a query')), qs.length);
        }
        old = { ...old, previous: { buildMs: previous.ms, ram: previous.ram, rank } };
      }
    }
    index.close();
    const restart = await measureRestart(dir, defined(forWords(queries, 2)[0], 'a query'));
    const row: Row = {
      n,
      textBytes,
      ...imp,
      restart,
      ramEstimate: memory.heapBytes,
      rss: process.memoryUsage().rss,
      spilled: memory.spilledBytes,
      mem,
      again,
      fts,
      agree: `${same}/${compared}`,
      old,
    };
    return row;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function print(r: Row): void {
  const f = (l: Latency): string => `p50 ${l.p50.toFixed(2)} ms, p99 ${l.p99.toFixed(2)} ms`;
  const perSec = (ms: number): string => `${(r.n / (ms / 1000)).toFixed(0)} docs/s`;
  const x = (bytes: number): string => `${(bytes / r.textBytes).toFixed(2)}x text`;
  console.log(`\n== ${r.n.toLocaleString('en')} documents, ${mb(r.textBytes)} of text`);
  console.log(
    `import        ${r.importRows.toFixed(0)} docs/s committed, ${r.importAll.toFixed(0)} docs/s with the final optimize (goal ≥ 5,000)`,
  );
  console.log(
    `              searchable meanwhile: the ranker trailed by at most ${r.trail.toLocaleString('en')} documents, caught up ${(r.catchUpMs / 1000).toFixed(1)} s after`,
  );
  console.log(
    `RAM           ranker built alone: ${mb(r.old.newRam)} measured = ${x(r.old.newRam)} (goal ≤ 1.5x); the server's ranker estimates ${mb(r.ramEstimate)} = ${x(r.ramEstimate)}, spilled ${mb(r.spilled)}; process RSS ${mb(r.rss)}`,
  );
  console.log(
    `restart       first answer ${r.restart.firstAnswerMs.toFixed(0)} ms (${r.restart.inMemoryAtFirst ? 'ranked in memory' : 'by FTS5, the ranker not rebuilt yet'}), ranker ready ${(r.restart.readyMs / 1000).toFixed(1)} s after opening the file, rebuilt from it (goal at 1M: answering within 10 s, loaded, not rebuilt)`,
  );
  const t = r.old.previous;
  console.log(
    `build alone   new ${perSec(r.old.newBuildMs)}` +
      (t
        ? `   previous ${perSec(t.buildMs)}, RAM ${mb(t.ram)} = ${x(t.ram)}`
        : `   previous: not built at this size (it holds ~5x the text; --old-max ${oldMax})`),
  );
  for (const w of WORDS) {
    const [mem, fts] = [forWords(r.mem, w), forWords(r.fts, w)];
    const ratio = fts.p50 / mem.p50;
    console.log(`search ${w}-word  memory ${f(mem)}   FTS5 ${f(fts)}   (FTS5/memory p50 ×${ratio.toFixed(1)})`);
  }
  for (const w of WORDS)
    console.log(`search ${w}-word  asked again: memory ${f(forWords(r.again, w))} (phrase counts remembered)`);
  console.log(`              same top-10 as FTS5: ${r.agree} (a differing page is a tie at the cut)`);
  for (const w of WORDS) {
    const rank = forWords(r.old.newRank, w);
    const mine = `rank() ${w}-word  new ${f(rank)}`;
    const previous = t && forWords(t.rank, w);
    console.log(
      previous
        ? `${mine}   previous ${f(previous)}   (previous/new p50 ×${(previous.p50 / rank.p50).toFixed(1)})`
        : mine,
    );
  }
  for (const w of WORDS) {
    const np = forWords(r.old.noProximity, w);
    console.log(
      `BM25 only ${w}-word  pruned ${f(np)}   every posting ${f(np.exhaustive)}   (pruning reads ${((100 * np.decoded) / Math.max(1, np.postings)).toFixed(1)}% of the postings)`,
    );
  }
  const sp = r.old.spilled;
  if (sp) {
    console.log(
      `spilled       budget ${spillMb} MB: RAM ${mb(sp.ram)} = ${x(sp.ram)}, ${mb(sp.disk)} of postings on disk, built at ${perSec(sp.buildMs)}`,
    );
    for (const w of WORDS) {
      const [spilled, inMemory] = [forWords(sp.rank, w), forWords(r.old.newRank, w)];
      console.log(
        `rank() ${w}-word  spilled ${f(spilled)}   in memory ${f(inMemory)}   (spilled/in-memory p50 ×${(spilled.p50 / inMemory.p50).toFixed(1)})`,
      );
    }
  }
}

function growth(rows: Row[]): void {
  if (rows.length < 2) return;
  const a = defined(rows[0], 'a first size');
  const b = defined(rows.at(-1), 'a last size');
  const x = (from: number, to: number): string => `×${(to / from).toFixed(2)}`;
  console.log(
    `\n== growth from ${a.n.toLocaleString('en')} to ${b.n.toLocaleString('en')} documents (×${b.n / a.n} documents)`,
  );
  console.log(
    `import docs/s ${x(a.importRows, b.importRows)}   RAM/text ${(a.old.newRam / a.textBytes).toFixed(2)} → ${(b.old.newRam / b.textBytes).toFixed(2)}`,
  );
  for (const w of WORDS) {
    console.log(
      `${w}-word p50 memory ${x(forWords(a.mem, w).p50, forWords(b.mem, w).p50)} (FTS5 ${x(forWords(a.fts, w).p50, forWords(b.fts, w).p50)})   p99 memory ${x(forWords(a.mem, w).p99, forWords(b.mem, w).p99)} (FTS5 ${x(forWords(a.fts, w).p99, forWords(b.fts, w).p99)})`,
    );
  }
  for (const r of rows) {
    console.log(
      `  ${r.n.toLocaleString('en').padStart(9)}: ${WORDS.map((w) => `${w}w p50 ${forWords(r.mem, w).p50.toFixed(2)}/p99 ${forWords(r.mem, w).p99.toFixed(2)} ms`).join('  ')}  RAM ${(r.old.newRam / r.textBytes).toFixed(2)}x  import ${r.importRows.toFixed(0)}/s`,
    );
  }
}

// The import runs the CLI from dist/: build it now, not inside the timing.
ensureFreshDist();
const v = loadVocabulary(dirs);
console.log(
  `vocabulary: ${v.words.length.toLocaleString('en')} distinct words from ${(v.chars / 1e6).toFixed(1)} M characters of page text in ${dirs.length} folder(s), ${v.hosts.length} hosts`,
);
if (args.includes('--ranker-only')) {
  rankerOnly(v);
} else {
  const rows: Row[] = [];
  for (const n of sizes) {
    const row = await measure(v, n);
    print(row);
    rows.push(row);
  }
  growth(rows);
}

/**
 * --ranker-only: the ranker alone at each size, built straight from the generated documents
 * (no index file, no FTS5, no import): its RAM over the text, build rate, and rank() p50/p99
 * with the proximity bonus and with BM25 alone, pruned beside every posting scored (the
 * same ranker, same run). For sizes where the whole benchmark takes too long (1M: FTS5's
 * own searches take seconds each there).
 */
function rankerOnly(vocabulary: Vocabulary): void {
  const f = (l: Latency): string => `p50 ${l.p50.toFixed(2)} ms, p99 ${l.p99.toFixed(2)} ms`;
  const firstP50: Record<string, number> = {};
  for (const n of sizes) {
    const queries = Object.fromEntries(
      WORDS.map((w) => [w, generateQueries(vocabulary, w, queriesPer, 100 + w)]),
    ) as Record<number, string[]>;
    // The documents are generated as they are added (1M of them do not fit in RAM twice):
    // a pass that only generates them is timed first and taken off the build's time.
    const g = performance.now();
    for (const d of generateDocs(vocabulary, n, 42)) if (d.url === '') throw new Error('a document without a url');
    const generateMs = performance.now() - g;
    const before = heap();
    const t = performance.now();
    const ranker = new MemoryRanker({ keepTexts: false });
    let textBytes = 0;
    let id = 0;
    for (const d of generateDocs(vocabulary, n, 42)) {
      textBytes += Buffer.byteLength(d.title) + Buffer.byteLength(d.content);
      const day = d.published_date ?? null;
      ranker.add({
        id: ++id,
        url: d.url,
        title: d.title,
        content: d.content,
        domain: new URL(d.url).hostname,
        publishedDate: day,
        day,
        country: d.country ?? null,
      });
    }
    ranker.trim();
    const buildMs = performance.now() - t - generateMs;
    const ram = heap() - before;
    console.log(`\n== ranker only, ${n.toLocaleString('en')} documents, ${mb(textBytes)} of text`);
    console.log(
      `RAM           ${mb(ram)} measured = ${(ram / textBytes).toFixed(2)}x text (goal ≤ 1.5x); estimate ${mb(ranker.memory().heapBytes)}; built at ${(n / (buildMs / 1000)).toFixed(0)} docs/s (generating them excluded: ${(n / (generateMs / 1000)).toFixed(0)} docs/s alone)`,
    );
    for (const w of WORDS) {
      const qs = forWords(queries, w)
        .map((q) => rankQuery(q))
        .filter((q): q is RankQuery => q !== undefined);
      const withBonus = time((i) => ranker.rank(defined(qs[i % qs.length], 'a query')), qs.length);
      const again = time((i) => ranker.rank(defined(qs[i % qs.length], 'a query')), qs.length);
      let decoded = 0;
      let postings = 0;
      const pruned = time((i) => {
        ranker.rank({ ...defined(qs[i % qs.length], 'a query'), proximityWeight: 0 });
        decoded += ranker.lastDecoded;
      }, qs.length);
      const every = time((i) => {
        ranker.rank({ ...defined(qs[i % qs.length], 'a query'), proximityWeight: 0 }, false);
        postings += ranker.lastDecoded;
      }, qs.length);
      console.log(`rank() ${w}-word  with the proximity bonus ${f(withBonus)} (asked again ${f(again)})`);
      console.log(
        `              BM25 alone pruned ${f(pruned)}   every posting ${f(every)}   (×${(every.p50 / pruned.p50).toFixed(1)} p50; pruning reads ${((100 * decoded) / Math.max(1, postings)).toFixed(1)}% of the postings)`,
      );
      const key = `${w}`;
      const first = firstP50[key];
      if (first === undefined) firstP50[key] = withBonus.p50;
      else
        console.log(
          `              growth of p50 with the bonus since ${defined(sizes[0], 'a first size').toLocaleString('en')}: ×${(withBonus.p50 / first).toFixed(2)}`,
        );
    }
    ranker.close();
  }
}
