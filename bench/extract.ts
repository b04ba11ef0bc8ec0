/**
 * Extraction benchmark: `npm run bench:extract -- <dataset dir>… [--rounds N] [--split
 * all|dev|holdout] [--ablation] [--pages]`. Each set is reported on its own (and per source
 * when it names sources); --split keeps the development or the held-out part of a
 * multi-source set (extract-dataset.ts); --ablation adds F1 with each rule off in turn.
 * Runs Scout's extractor through the same function /v1/fetch calls (extractDocument, with
 * the page bytes, `text/html; charset=utf-8` and the page URL) and, in the same process and
 * rounds, the plain Readability + linkedom + Turndown baseline; prints quality (the
 * dataset README's metric), per-page latency and throughput for both, and their ratios.
 */
import { basename } from 'node:path';
import { defined } from '../test/helpers/defined.ts';
import { extractDocumentWith } from '../src/extract/extract-document.ts';
import { ALL_RULES, RULE_NAMES, type ExtractRules, without } from '../src/extract/html/extract-rules.ts';
import { createBaselineExtractor } from './extract-baseline.ts';
import { type BenchPage, loadDataset, type Split, splitPages } from './extract-dataset.ts';
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

interface Args {
  dirs: string[];
  rounds: number;
  pages: boolean;
  split: Split;
  ablation: boolean;
}

const USAGE =
  'usage: npm run bench:extract -- <dataset dir>… [--rounds N] [--split all|dev|holdout] [--ablation] [--pages]';

function parseArgs(argv: string[]): Args {
  const valued = new Set(['--rounds', '--split']);
  const dirs = argv.filter((a, i) => !a.startsWith('--') && !valued.has(argv[i - 1] ?? ''));
  if (dirs.length === 0) throw new Error(USAGE);
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const rounds = Math.max(1, Number.parseInt(value('--rounds') ?? '3', 10));
  const split = (value('--split') ?? 'all') as Split;
  if (!['all', 'dev', 'holdout'].includes(split)) throw new Error(USAGE);
  return { dirs, rounds, pages: argv.includes('--pages'), split, ablation: argv.includes('--ablation') };
}

const median = (xs: number[]): number => quantile(xs, 0.5);
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return defined(s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))], `a ${q} quantile`);
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
  const runs = given.map(([name, run], i): [string, Extractor] => [
    name,
    guarded(run, defined(threw[i], `the pages run ${i} threw on`)),
  ]);
  for (const [name, run] of runs) {
    // Untimed first pass: scores the output and warms the JIT.
    const perPage: PageScore[] = [];
    for (const page of pages) perPage.push(scorePage(page.truth, await run(page)));
    results.push({ name, threw: [], quality: scoreSet(perPage), perPage, ms: [] });
  }
  const samples = runs.map(() => pages.map((): number[] => []));
  for (let round = 0; round < rounds; round += 1) {
    for (const [p, page] of pages.entries()) {
      // Alternate who goes first so neither always runs on a warmer cache.
      const order = (round + p) % 2 === 0 ? runs.map((_, i) => i) : runs.map((_, i) => runs.length - 1 - i);
      for (const i of order) {
        const [, run] = defined(runs[i], `run ${i}`);
        defined(samples[i]?.[p], `the times of run ${i} on page ${p}`).push(await timeOnce(run, page));
      }
    }
  }
  results.forEach((r, i) => {
    r.ms = defined(samples[i], `the times of run ${i}`).map(median);
    r.threw = [...defined(threw[i], `the pages run ${i} threw on`)].sort();
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
      const s = defined(r.perPage[p], `the score of page ${p}`);
      const pr = s.tp + s.fp > 0 ? s.tp / (s.tp + s.fp) : 0;
      const rc = s.tp + s.fn > 0 ? s.tp / (s.tp + s.fn) : 0;
      return `${pr.toFixed(3)} ${rc.toFixed(3)} ${defined(r.ms[p], `the time of page ${p}`).toFixed(1).padStart(6)}ms`;
    });
    return `${page.id.slice(0, 12)}  ${cells.join('  |  ')}`;
  });
  return [`page          ${results.map((r) => `${r.name} P R time`).join('  |  ')}`, ...lines].join('\n');
}

const scoutWith =
  (rules: ExtractRules): Extractor =>
  async (page) =>
    (await extractDocumentWith({ body: page.body, contentType: 'text/html; charset=utf-8', url: page.url }, rules))
      .markdown;

/** One untimed pass: the set's quality with these rules. */
async function qualityOf(pages: BenchPage[], run: Extractor): Promise<PageScore[]> {
  const threw = new Set<string>();
  const safe = guarded(run, threw);
  const out: PageScore[] = [];
  for (const page of pages) out.push(scorePage(page.truth, await safe(page)));
  return out;
}

const cell = (q: SetScore) => `${q.f1.toFixed(4)} (${q.precision.toFixed(3)} / ${q.recall.toFixed(3)})`;
const signed = (d: number) => `${d >= 0 ? '+' : ''}${d.toFixed(4)}`;

async function benchSet(name: string, pages: BenchPage[], rounds: number, showPages: boolean): Promise<Result> {
  const megabytes = pages.reduce((n, p) => n + p.body.length, 0) / 1e6;
  const baseline = createBaselineExtractor();
  const runs: [string, Extractor][] = [
    ['scout', scoutWith(ALL_RULES)],
    ['baseline', async (page) => baseline(page.body)],
  ];
  const [scout, base] = await measure(pages, runs, rounds);
  const mbps = (r: Result): number => megabytes / (r.ms.reduce((a, b) => a + b, 0) / 1000);
  const header = ['', 'F1', 'precision', 'recall', 'accuracy', 'median ms', 'p95 ms', 'MB/s'];
  console.log(`\n${name}: ${pages.length} pages, ${megabytes.toFixed(2)} MB, ${rounds} timed rounds`);
  if (showPages) console.log(`${pageTable(pages, [scout!, base!])}\n`);
  console.log(header.map((c, i) => (i === 0 ? c.padEnd(10) : c.padStart(10))).join(' '));
  console.log(row(scout!, megabytes));
  console.log(row(base!, megabytes));
  const sources = [...new Set(pages.map((p) => p.source))].sort();
  if (sources.length > 1) {
    console.log('per source: F1 (precision / recall) of scout vs baseline, and the difference');
    for (const source of sources) {
      const at = pages.flatMap((p, i) => (p.source === source ? [i] : []));
      const [a, b] = [scout!, base!].map((r) =>
        scoreSet(at.map((i) => defined(r.perPage[i], `the score of page ${i}`))),
      );
      console.log(
        `${source.padEnd(16)} ${String(at.length).padStart(5)} pages  scout ${cell(a!)}  baseline ${cell(b!)}  ${signed(a!.f1 - b!.f1)}`,
      );
    }
  }
  for (const r of [scout!, base!]) {
    if (r.threw.length > 0)
      console.log(
        `${r.name}: ${r.threw.length} page(s) threw, scored as empty output: ${r.threw.slice(0, 10).join(', ')}${r.threw.length > 10 ? ', …' : ''}`,
      );
  }
  console.log(
    `scout/baseline: F1 ${(scout!.quality.f1 / base!.quality.f1).toFixed(3)}x (${signed(scout!.quality.f1 - base!.quality.f1)}), ` +
      `throughput ${(mbps(scout!) / mbps(base!)).toFixed(2)}x, ` +
      `median latency ${(median(scout!.ms) / median(base!.ms)).toFixed(2)}x`,
  );
  return scout!;
}

/** Each rule off in turn: F1 on every set, and the change from all rules on. */
async function ablation(sets: { name: string; pages: BenchPage[]; full: SetScore }[]): Promise<void> {
  console.log('\nablation: F1 with one rule off (change from every rule on; negative = the rule helps)');
  console.log(['rule'.padEnd(18), ...sets.map((s) => s.name.padStart(24))].join(' '));
  console.log(['(all on)'.padEnd(18), ...sets.map((s) => s.full.f1.toFixed(4).padStart(24))].join(' '));
  for (const rule of RULE_NAMES) {
    const cells: string[] = [];
    for (const set of sets) {
      const q = scoreSet(await qualityOf(set.pages, scoutWith(without(rule))));
      cells.push(`${q.f1.toFixed(4)} (${signed(q.f1 - set.full.f1)})`.padStart(24));
    }
    console.log([rule.padEnd(18), ...cells].join(' '));
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const sets = args.dirs.map((dir) => ({
    name: `${basename(dir)}${args.split === 'all' ? '' : ` (${args.split})`}`,
    pages: splitPages(loadDataset(dir), args.split),
  }));
  console.log(`extraction benchmark: ${sets.map((s) => `${s.name} ${s.pages.length} pages`).join(', ')}`);
  const results: { name: string; pages: BenchPage[]; full: SetScore }[] = [];
  for (const set of sets) {
    const scout = await benchSet(set.name, set.pages, args.rounds, args.pages);
    results.push({ ...set, full: scout.quality });
  }
  if (args.ablation) await ablation(results);
}

await main();
