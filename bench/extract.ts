/**
 * Extraction benchmark: `npm run bench:extract -- <dataset dir> [--rounds N] [--pages]`.
 * Runs Scout's extractor through the same function /v1/fetch calls (extractDocument, with
 * the page bytes, `text/html; charset=utf-8` and the page URL) and, in the same process and
 * rounds, the plain Readability + linkedom + Turndown baseline; prints quality (the
 * dataset README's metric), per-page latency and throughput for both, and their ratios.
 */
import { extractDocument } from '../src/extract/extract-document.ts';
import { createBaselineExtractor } from './extract-baseline.ts';
import { type BenchPage, loadDataset } from './extract-dataset.ts';
import { type PageScore, type SetScore, scorePage, scoreSet } from './extract-metric.ts';

type Extractor = (page: BenchPage) => Promise<string>;

interface Result {
  name: string;
  /** Pages whose extraction threw: scored as empty output (as an error answer gives no text). */
  threw: string[];
  quality: SetScore;
  perPage: PageScore[];
  /** Per-page time in ms: median over the timed rounds. */
  ms: number[];
}

function parseArgs(argv: string[]): { dir: string; rounds: number; pages: boolean } {
  const dir = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--rounds');
  if (dir === undefined) throw new Error('usage: npm run bench:extract -- <dataset dir> [--rounds N] [--pages]');
  const r = argv.indexOf('--rounds');
  const rounds = r >= 0 ? Math.max(1, Number.parseInt(argv[r + 1] ?? '3', 10)) : 3;
  return { dir, rounds, pages: argv.includes('--pages') };
}

const median = (xs: number[]): number => quantile(xs, 0.5);
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))];
}

async function timeOnce(run: Extractor, page: BenchPage): Promise<number> {
  const start = performance.now();
  await run(page);
  return performance.now() - start;
}

/**
 * An extractor that throws (Readability does on some pages; Scout refuses block pages and app
 * shells) counts as empty output for that page, and the run goes on.
 */
const guarded =
  (run: Extractor, threw: Set<string>): Extractor =>
  async (page) => {
    try {
      return await run(page);
    } catch {
      threw.add(page.id);
      return '';
    }
  };

async function measure(pages: BenchPage[], given: [string, Extractor][], rounds: number): Promise<Result[]> {
  const results: Result[] = [];
  const threw = given.map(() => new Set<string>());
  const runs = given.map(([name, run], i): [string, Extractor] => [name, guarded(run, threw[i]!)]);
  for (const [name, run] of runs) {
    // Untimed first pass: scores the output and warms the JIT.
    const perPage: PageScore[] = [];
    for (const page of pages) perPage.push(scorePage(page.truth, await run(page)));
    results.push({ name, threw: [], quality: scoreSet(perPage), perPage, ms: [] });
  }
  const samples = runs.map(() => pages.map((): number[] => []));
  for (let round = 0; round < rounds; round += 1) {
    for (let p = 0; p < pages.length; p += 1) {
      // Alternate who goes first so neither always runs on a warmer cache.
      const order = (round + p) % 2 === 0 ? runs.map((_, i) => i) : runs.map((_, i) => runs.length - 1 - i);
      for (const i of order) samples[i][p].push(await timeOnce(runs[i][1], pages[p]));
    }
  }
  results.forEach((r, i) => {
    r.ms = samples[i].map(median);
    r.threw = [...threw[i]!].sort();
  });
  return results;
}

function row(r: Result, megabytes: number): string {
  const total = r.ms.reduce((a, b) => a + b, 0);
  const q = r.quality;
  const cells = [
    r.name.padEnd(10),
    q.f1.toFixed(4),
    q.precision.toFixed(4),
    q.recall.toFixed(4),
    q.accuracy.toFixed(3),
    median(r.ms).toFixed(1),
    quantile(r.ms, 0.95).toFixed(1),
    (megabytes / (total / 1000)).toFixed(2),
  ];
  return cells.map((c, i) => (i === 0 ? c : c.padStart(10))).join(' ');
}

function pageTable(pages: BenchPage[], results: Result[]): string {
  const lines = pages.map((page, p) => {
    const cells = results.map((r) => {
      const s = r.perPage[p];
      const pr = s.tp + s.fp > 0 ? s.tp / (s.tp + s.fp) : 0;
      const rc = s.tp + s.fn > 0 ? s.tp / (s.tp + s.fn) : 0;
      return `${pr.toFixed(3)} ${rc.toFixed(3)} ${r.ms[p].toFixed(1).padStart(6)}ms`;
    });
    return `${page.id.slice(0, 12)}  ${cells.join('  |  ')}`;
  });
  return [`page          ${results.map((r) => `${r.name} P R time`).join('  |  ')}`, ...lines].join('\n');
}

async function main(): Promise<void> {
  const { dir, rounds, pages: showPages } = parseArgs(process.argv.slice(2));
  const pages = loadDataset(dir);
  const megabytes = pages.reduce((n, p) => n + p.body.length, 0) / 1e6;
  const baseline = createBaselineExtractor();
  const runs: [string, Extractor][] = [
    [
      'scout',
      async (page) =>
        (await extractDocument({ body: page.body, contentType: 'text/html; charset=utf-8', url: page.url })).markdown,
    ],
    ['baseline', async (page) => baseline(page.body)],
  ];
  const [scout, base] = await measure(pages, runs, rounds);
  const mbps = (r: Result): number => megabytes / (r.ms.reduce((a, b) => a + b, 0) / 1000);
  const header = ['', 'F1', 'precision', 'recall', 'accuracy', 'median ms', 'p95 ms', 'MB/s'];
  console.log(`extraction benchmark: ${pages.length} pages, ${megabytes.toFixed(2)} MB, ${rounds} timed rounds`);
  if (showPages) console.log(`${pageTable(pages, [scout, base])}\n`);
  console.log(header.map((c, i) => (i === 0 ? c.padEnd(10) : c.padStart(10))).join(' '));
  console.log(row(scout, megabytes));
  console.log(row(base, megabytes));
  const sources = [...new Set(pages.map((p) => p.source))].sort();
  if (sources.length > 1) {
    console.log('\nper source: F1 (precision / recall) of scout vs baseline, and the difference');
    for (const source of sources) {
      const at = pages.flatMap((p, i) => (p.source === source ? [i] : []));
      const [a, b] = [scout, base].map((r) => scoreSet(at.map((i) => r.perPage[i]!)));
      const cell = (q: SetScore) => `${q.f1.toFixed(4)} (${q.precision.toFixed(3)} / ${q.recall.toFixed(3)})`;
      console.log(`${source.padEnd(16)} ${String(at.length).padStart(5)} pages  scout ${cell(a!)}  baseline ${cell(b!)}  ${(a!.f1 - b!.f1 >= 0 ? '+' : '')}${(a!.f1 - b!.f1).toFixed(4)}`);
    }
  }
  for (const r of [scout, base]) {
    if (r.threw.length > 0) console.log(`${r.name}: ${r.threw.length} page(s) threw, scored as empty output: ${r.threw.slice(0, 10).join(', ')}${r.threw.length > 10 ? ', …' : ''}`);
  }
  console.log(
    `scout/baseline: F1 ${(scout.quality.f1 / base.quality.f1).toFixed(3)}x, ` +
      `throughput ${(mbps(scout) / mbps(base)).toFixed(2)}x, ` +
      `median latency ${(median(scout.ms) / median(base.ms)).toFixed(2)}x`,
  );
}

await main();
