/**
 * Extraction benchmark: `npm run bench:extract -- <dataset dir>… [--rounds N] [--split
 * all|dev|holdout] [--ablation] [--pages]`. Each set is reported on its own (and per source
 * when it names sources); --split keeps the development or the held-out part of a
 * multi-source or WCXB set (extract-dataset.ts); --ablation adds F1 with each rule off in turn.
 * Runs Scout's extractor through the same function /v1/fetch calls (extractDocument, with
 * the page bytes, `text/html; charset=utf-8` and the page URL) and, in the same process and
 * rounds, the plain Readability + linkedom + Turndown baseline; prints quality (the
 * dataset README's metric), per-page latency and throughput for both, and their ratios.
 * A WCXB set (extract-dataset.ts tells the layouts apart) is scored by WCXB's own metric
 * (wcxb-metric.ts) and reported per page type, with its snippet rates and empty pages
 * (wcxb-report.ts).
 */
import { basename } from 'node:path';
import { defined } from '../test/helpers/defined.ts';
import { extractDocumentWith } from '../src/extract/extract-document.ts';
import { ALL_RULES, RULE_NAMES, type ExtractRules, without } from '../src/extract/html/extract-rules.ts';
import { createBaselineExtractor } from './extract-baseline.ts';
import { type BenchPage, loadDataset, type Split, splitPages } from './extract-dataset.ts';
import { type PageScore, type SetScore, scorePage, scoreSet } from './extract-metric.ts';
import { scoreWcxbPage, summariseByType, type WcxbTruth } from './wcxb-metric.ts';
import { type ByType, ablationByTypeTable, detailByTypeTable, f1ByTypeTable } from './wcxb-report.ts';

type Extractor = (page: BenchPage) => Promise<string>;

interface Result {
  name: string;
  /** Pages whose extraction threw: scored as empty output (as an error answer gives no text). */
  threw: string[];
  /** Each page's markdown from the untimed pass ('' where it threw), scored by the set's metric. */
  outputs: string[];
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
    // Untimed first pass: the output to score, and it warms the JIT.
    const outputs: string[] = [];
    for (const page of pages) outputs.push(await run(page));
    results.push({ name, threw: [], outputs, ms: [] });
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

/** The original layout's scores of a run: per page, and the set's. */
interface ArticleScores {
  perPage: PageScore[];
  quality: SetScore;
}

function articleScores(pages: BenchPage[], outputs: string[]): ArticleScores {
  const perPage = pages.map((page, i) => scorePage(page.truth, defined(outputs[i], `the output of page ${i}`)));
  return { perPage, quality: scoreSet(perPage) };
}

function wcxbOf(page: BenchPage): WcxbTruth {
  return defined(page.wcxb, `page ${page.id}'s WCXB ground truth`);
}

function wcxbByType(pages: BenchPage[], outputs: string[]): ByType {
  return summariseByType(
    pages.map((page, i) => scoreWcxbPage(wcxbOf(page), defined(outputs[i], `the output of page ${i}`))),
  );
}

const isWcxb = (pages: BenchPage[]): boolean => pages.length > 0 && pages.every((p) => p.wcxb !== undefined);

function row(r: Result, q: SetScore, megabytes: number): string {
  const total = r.ms.reduce((a, b) => a + b, 0);
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

function pageTable(pages: BenchPage[], results: [Result, ArticleScores][]): string {
  const lines = pages.map((page, p) => {
    const cells = results.map(([r, scores]) => {
      const s = defined(scores.perPage[p], `the score of page ${p}`);
      const pr = s.tp + s.fp > 0 ? s.tp / (s.tp + s.fp) : 0;
      const rc = s.tp + s.fn > 0 ? s.tp / (s.tp + s.fn) : 0;
      return `${pr.toFixed(3)} ${rc.toFixed(3)} ${defined(r.ms[p], `the time of page ${p}`).toFixed(1).padStart(6)}ms`;
    });
    return `${page.id.slice(0, 12)}  ${cells.join('  |  ')}`;
  });
  return [`page          ${results.map(([r]) => `${r.name} P R time`).join('  |  ')}`, ...lines].join('\n');
}

/** --pages on a WCXB set: each page's type, then precision, recall, F1 and time per extractor. */
function wcxbPageTable(pages: BenchPage[], results: Result[]): string {
  const lines = pages.map((page, p) => {
    const cells = results.map((r) => {
      const s = scoreWcxbPage(wcxbOf(page), defined(r.outputs[p], `the output of page ${p}`));
      const ms = defined(r.ms[p], `the time of page ${p}`).toFixed(1).padStart(6);
      return `${s.precision.toFixed(3)} ${s.recall.toFixed(3)} ${s.f1.toFixed(3)} ${ms}ms`;
    });
    return `${page.id.slice(0, 12).padEnd(12)}  ${wcxbOf(page).pageType.padEnd(13)}  ${cells.join('  |  ')}`;
  });
  const head = `${'page'.padEnd(12)}  ${'type'.padEnd(13)}  ${results.map((r) => `${r.name} P R F1 time`).join('  |  ')}`;
  return [head, ...lines].join('\n');
}

const scoutWith =
  (rules: ExtractRules): Extractor =>
  async (page) =>
    (await extractDocumentWith({ body: page.body, contentType: 'text/html; charset=utf-8', url: page.url }, rules))
      .markdown;

/** One untimed pass: each page's output with these rules ('' where it threw). */
async function outputsOf(pages: BenchPage[], run: Extractor): Promise<string[]> {
  const threw = new Set<string>();
  const safe = guarded(run, threw);
  const out: string[] = [];
  for (const page of pages) out.push(await safe(page));
  return out;
}

const cell = (q: SetScore) => `${q.f1.toFixed(4)} (${q.precision.toFixed(3)} / ${q.recall.toFixed(3)})`;
const signed = (d: number) => `${d >= 0 ? '+' : ''}${d.toFixed(4)}`;

/** What ablation needs of a set: its pages, and its scores with every rule on. */
interface SetRun {
  name: string;
  pages: BenchPage[];
  /** Overall F1 with every rule on (the original metric, or WCXB's mean word F1). */
  full: number;
  /** A WCXB set's figures per type with every rule on. */
  byType?: ByType;
}

function throwLines(results: Result[]): void {
  for (const r of results) {
    if (r.threw.length > 0)
      console.log(
        `${r.name}: ${r.threw.length} page(s) threw, scored as empty output: ${r.threw.slice(0, 10).join(', ')}${r.threw.length > 10 ? ', …' : ''}`,
      );
  }
}

async function benchSet(name: string, pages: BenchPage[], rounds: number, showPages: boolean): Promise<SetRun> {
  const megabytes = pages.reduce((n, p) => n + p.body.length, 0) / 1e6;
  const baseline = createBaselineExtractor();
  const runs: [string, Extractor][] = [
    ['scout', scoutWith(ALL_RULES)],
    ['baseline', async (page) => baseline(page.body)],
  ];
  const [scout, base] = await measure(pages, runs, rounds);
  console.log(`\n${name}: ${pages.length} pages, ${megabytes.toFixed(2)} MB, ${rounds} timed rounds`);
  if (isWcxb(pages)) return wcxbReport({ name, pages, megabytes, showPages }, scout!, base!);
  const mbps = (r: Result): number => megabytes / (r.ms.reduce((a, b) => a + b, 0) / 1000);
  const [scoutScores, baseScores] = [scout!, base!].map((r) => articleScores(pages, r.outputs));
  const header = ['', 'F1', 'precision', 'recall', 'accuracy', 'median ms', 'p95 ms', 'MB/s'];
  if (showPages)
    console.log(
      `${pageTable(pages, [
        [scout!, scoutScores!],
        [base!, baseScores!],
      ])}\n`,
    );
  console.log(header.map((c, i) => (i === 0 ? c.padEnd(10) : c.padStart(10))).join(' '));
  console.log(row(scout!, scoutScores!.quality, megabytes));
  console.log(row(base!, baseScores!.quality, megabytes));
  const sources = [...new Set(pages.map((p) => p.source))].sort();
  if (sources.length > 1) {
    console.log('per source: F1 (precision / recall) of scout vs baseline, and the difference');
    for (const source of sources) {
      const at = pages.flatMap((p, i) => (p.source === source ? [i] : []));
      const [a, b] = [scoutScores!, baseScores!].map((r) =>
        scoreSet(at.map((i) => defined(r.perPage[i], `the score of page ${i}`))),
      );
      console.log(
        `${source.padEnd(16)} ${String(at.length).padStart(5)} pages  scout ${cell(a!)}  baseline ${cell(b!)}  ${signed(a!.f1 - b!.f1)}`,
      );
    }
  }
  throwLines([scout!, base!]);
  const [sq, bq] = [scoutScores!.quality, baseScores!.quality];
  console.log(
    `scout/baseline: F1 ${(sq.f1 / bq.f1).toFixed(3)}x (${signed(sq.f1 - bq.f1)}), ` +
      `throughput ${(mbps(scout!) / mbps(base!)).toFixed(2)}x, ` +
      `median latency ${(median(scout!.ms) / median(base!.ms)).toFixed(2)}x`,
  );
  return { name, pages, full: sq.f1 };
}

/** A WCXB set's report: speed, mean word F1 per type side by side, each extractor's detail. */
function wcxbReport(
  set: { name: string; pages: BenchPage[]; megabytes: number; showPages: boolean },
  scout: Result,
  base: Result,
): SetRun {
  const { name, pages, megabytes } = set;
  const seconds = (r: Result): number => r.ms.reduce((a, b) => a + b, 0) / 1000;
  const speed = (r: Result) =>
    [
      r.name.padEnd(10),
      (pages.length / seconds(r)).toFixed(1),
      (megabytes / seconds(r)).toFixed(2),
      median(r.ms).toFixed(1),
      quantile(r.ms, 0.95).toFixed(1),
    ]
      .map((c, i) => (i === 0 ? c : c.padStart(10)))
      .join(' ');
  if (set.showPages) console.log(`${wcxbPageTable(pages, [scout, base])}\n`);
  console.log(
    ['', 'pages/s', 'MB/s', 'median ms', 'p95 ms'].map((c, i) => (i === 0 ? c.padEnd(10) : c.padStart(10))).join(' '),
  );
  console.log(speed(scout));
  console.log(speed(base));
  const [s, b] = [scout, base].map((r) => ({ name: r.name, byType: wcxbByType(pages, r.outputs) }));
  console.log(f1ByTypeTable([s!, b!]).join('\n'));
  for (const r of [s!, b!]) console.log(detailByTypeTable(r.name, r.byType).join('\n'));
  throwLines([scout, base]);
  const [sf, bf] = [s!, b!].map((r) => defined(r.byType[0], 'the all-pages row')[1].f1);
  console.log(
    `scout/baseline: mean word F1 ${(sf! / bf!).toFixed(3)}x (${signed(sf! - bf!)}), ` +
      `throughput ${(seconds(base) / seconds(scout)).toFixed(2)}x, ` +
      `median latency ${(median(scout.ms) / median(base.ms)).toFixed(2)}x`,
  );
  return { name, pages, full: sf!, byType: s!.byType };
}

/** A set's overall F1 from outputs: its own metric's (WCXB's mean word F1 for a WCXB set). */
function overallF1(set: SetRun, outputs: string[]): { f1: number; byType?: ByType } {
  if (set.byType === undefined) return { f1: articleScores(set.pages, outputs).quality.f1 };
  const byType = wcxbByType(set.pages, outputs);
  return { f1: defined(byType[0], 'the all-pages row')[1].f1, byType };
}

/** Each rule off in turn: F1 on every set, and the change from all rules on; per type on WCXB sets. */
async function ablation(sets: SetRun[]): Promise<void> {
  console.log('\nablation: F1 with one rule off (change from every rule on; negative = the rule helps)');
  console.log(['rule'.padEnd(18), ...sets.map((s) => s.name.padStart(24))].join(' '));
  console.log(['(all on)'.padEnd(18), ...sets.map((s) => s.full.toFixed(4).padStart(24))].join(' '));
  const perType = sets.map((): [string, ByType][] => []);
  for (const rule of RULE_NAMES) {
    const cells: string[] = [];
    for (const [i, set] of sets.entries()) {
      const q = overallF1(set, await outputsOf(set.pages, scoutWith(without(rule))));
      if (q.byType !== undefined) defined(perType[i], `the ablation rows of set ${i}`).push([rule, q.byType]);
      cells.push(`${q.f1.toFixed(4)} (${signed(q.f1 - set.full)})`.padStart(24));
    }
    console.log([rule.padEnd(18), ...cells].join(' '));
  }
  for (const [i, set] of sets.entries()) {
    if (set.byType !== undefined)
      console.log(
        ablationByTypeTable(set.name, set.byType, defined(perType[i], `the ablation rows of set ${i}`)).join('\n'),
      );
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const sets = args.dirs.map((dir) => ({
    name: `${basename(dir)}${args.split === 'all' ? '' : ` (${args.split})`}`,
    pages: splitPages(loadDataset(dir), args.split),
  }));
  console.log(`extraction benchmark: ${sets.map((s) => `${s.name} ${s.pages.length} pages`).join(', ')}`);
  const results: SetRun[] = [];
  for (const set of sets) results.push(await benchSet(set.name, set.pages, args.rounds, args.pages));
  if (args.ablation) await ablation(results);
}

await main();
