/**
 * Trains the extractor's learned choice between Readability's article and the whole pruned
 * body (src/extract/html/content-choice.ts) on the development part of each set given (WCXB's
 * seven page types, and article sets such as extraction-more, whose news pages teach it what
 * an article costs), held-out quarter excluded (extract-dataset.ts isHeldOut: the same pages
 * `bench:extract --split holdout` scores), and writes src/extract/html/content-choice-model.json.
 *
 *   npm run train:content-choice -- <folder>... [--cv] [--cache file.json] [--trees N] [--depth N] [--lr X] [--min-child-weight X] [--lambda X] [--threshold X] [--article-set-weight X] [--out file] [--dry]
 *
 * Each page is read both ways through the extractor's own code (pageReadings) and both are
 * scored with WCXB's word F1; a page is one sample whose label is the better reading and
 * whose weight is what the worse one loses. Threads, pages where Readability keeps too
 * little and pages the hand-written gate reads whole have no choice and are left out. `--cv` prints 5-fold cross-validated F1 by page
 * type beside always-article, always-body and the best of the two per page, to tune the
 * options on; `--cache` keeps the readings' scores so tuning does not extract again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ChoiceModel, checkModel } from '../src/extract/html/content-choice.ts';
import { pageReadings } from '../src/extract/html/html-document.ts';
import { FEATURE_NAMES } from '../src/extract/html/page-features.ts';
import { loadDataset, splitPages } from './extract-dataset.ts';
import { DEFAULT_GBDT, fitGbdt, type GbdtOptions, predict, type Sample } from './gbdt.ts';
import { markdownToText } from './markdown-text.ts';
import { wordF1 } from './wcxb-metric.ts';

export interface ScoredPage {
  id: string;
  type: string;
  x: number[];
  /** F1 of the article reading and of the whole-body reading. */
  article: number;
  body: number;
}

/**
 * The body is chosen only when the model's log-odds for it pass this: picking the body for an
 * article costs more than the reverse on the pages agents read most, and a margin above even
 * odds keeps borderline articles (a paywalled teaser beside a link list) as articles.
 */
const DEFAULT_THRESHOLD = 0;

const MODEL_PATH = new URL('../src/extract/html/content-choice-model.json', import.meta.url);

function scorePages(dir: string): ScoredPage[] {
  const out: ScoredPage[] = [];
  const decoder = new TextDecoder();
  for (const page of splitPages(loadDataset(dir), 'dev')) {
    const type = page.wcxb?.pageType ?? `article (${page.source})`;
    const readings = pageReadings(decoder.decode(page.body), page.url);
    if (readings === null || readings.article === null) continue;
    const f1 = (md: string): number => wordF1(page.truth, markdownToText(md)).f1;
    out.push({ id: page.id, type, x: readings.features, article: f1(readings.article), body: f1(readings.body) });
  }
  return out;
}

/** `articleSetWeight` scales the pages of article-only sets (their type is `article (<source>)`). */
export function samplesOf(pages: readonly ScoredPage[], articleSetWeight = 1): Sample[] {
  return pages
    .filter((p) => p.body !== p.article)
    .map((p) => ({
      x: p.x,
      y: p.body > p.article ? 1 : 0,
      w: Math.abs(p.body - p.article) * (p.type.startsWith('article (') ? articleSetWeight : 1),
    }));
}

const fold = (id: string, k: number): number => createHash('sha256').update(`cv:${id}`).digest().readUInt8(0) % k;

/** Mean F1 by page type of the choices `choose` makes, beside the fixed choices and the per-page best. */
function report(pages: readonly ScoredPage[], chosen: readonly boolean[]): void {
  const rows = new Map<string, number[][]>();
  pages.forEach((p, i) => {
    const row = [p.article, p.body, Math.max(p.article, p.body), chosen[i] ? p.body : p.article];
    for (const key of ['all', p.type]) rows.set(key, [...(rows.get(key) ?? []), row]);
  });
  console.log('| type | pages | always article | always body | best per page | learned choice |');
  console.log('|---|---|---|---|---|---|');
  for (const [type, list] of [...rows].sort()) {
    const mean = (i: number): string => (list.reduce((n, r) => n + (r[i] ?? 0), 0) / list.length).toFixed(4);
    console.log(`| ${type} | ${list.length} | ${mean(0)} | ${mean(1)} | ${mean(2)} | ${mean(3)} |`);
  }
}

function crossValidate(
  pages: readonly ScoredPage[],
  options: Partial<GbdtOptions>,
  threshold: number,
  articleSetWeight: number,
  k = 5,
): boolean[] {
  const chosen = pages.map(() => false);
  for (let f = 0; f < k; f += 1) {
    const model = fitGbdt(
      samplesOf(
        pages.filter((p) => fold(p.id, k) !== f),
        articleSetWeight,
      ),
      options,
    );
    pages.forEach((p, i) => {
      if (fold(p.id, k) === f) chosen[i] = predict(model, p.x) > threshold;
    });
  }
  return chosen;
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
}

function main(): void {
  const args = process.argv.slice(2);
  const firstFlag = args.findIndex((a) => a.startsWith('--'));
  const dirs = args.slice(0, firstFlag < 0 ? args.length : firstFlag);
  if (dirs.length === 0) {
    console.error(
      'usage: npm run train:content-choice -- <folder>... [--cv] [--cache file.json] [--trees N] [--depth N] [--lr X] [--min-child-weight X] [--lambda X] [--threshold X] [--article-set-weight X] [--out file] [--dry]',
    );
    process.exit(2);
  }
  const cache = flag(args, '--cache');
  const pages: ScoredPage[] =
    cache !== undefined && existsSync(cache)
      ? (JSON.parse(readFileSync(cache, 'utf8')) as ScoredPage[])
      : dirs.flatMap(scorePages);
  if (cache !== undefined && !existsSync(cache)) writeFileSync(cache, JSON.stringify(pages));
  const options: Partial<GbdtOptions> = {
    trees: Number(flag(args, '--trees') ?? DEFAULT_GBDT.trees),
    depth: Number(flag(args, '--depth') ?? DEFAULT_GBDT.depth),
    learningRate: Number(flag(args, '--lr') ?? DEFAULT_GBDT.learningRate),
    minChildWeight: Number(flag(args, '--min-child-weight') ?? DEFAULT_GBDT.minChildWeight),
    lambda: Number(flag(args, '--lambda') ?? DEFAULT_GBDT.lambda),
  };
  const threshold = Number(flag(args, '--threshold') ?? DEFAULT_THRESHOLD);
  const articleSetWeight = Number(flag(args, '--article-set-weight') ?? 1);
  console.log(
    `${pages.length} pages with a choice (development split, held-out quarter excluded); options ${JSON.stringify(options)}, threshold ${threshold}, article-set weight ${articleSetWeight}`,
  );
  if (args.includes('--cv')) {
    console.log('\n5-fold cross-validated word F1:');
    report(pages, crossValidate(pages, options, threshold, articleSetWeight));
  }
  const gbdt = fitGbdt(samplesOf(pages, articleSetWeight), options);
  const model: ChoiceModel = checkModel({
    features: [...FEATURE_NAMES],
    bias: gbdt.bias,
    threshold,
    trees: gbdt.trees,
    trainedOn: `WCXB v1.0 development split: ${pages.length} pages with a choice, held-out quarter excluded; ${JSON.stringify(options)}`,
  });
  console.log('\nOn its own training pages:');
  report(
    pages,
    pages.map((p) => predict(gbdt, p.x) > threshold),
  );
  if (!args.includes('--dry')) {
    const out = flag(args, '--out') ?? fileURLToPath(MODEL_PATH);
    writeFileSync(out, `${JSON.stringify(model)}\n`);
    console.log(`\nwrote ${out}`);
  }
}

main();
