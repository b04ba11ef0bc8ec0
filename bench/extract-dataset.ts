import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { WcxbTruth } from './wcxb-metric.ts';

export interface BenchPage {
  id: string;
  /** The benchmark a page comes from (pages.tsv's `source`), when the set says; else 'all'. */
  source: string;
  url: string;
  /** The reference text: `articleBody`, or WCXB's `main_content`. */
  truth: string;
  body: Uint8Array;
  /** A WCXB page's ground truth, scored by WCXB's own metric (wcxb-metric.ts). */
  wcxb?: WcxbTruth;
}

/**
 * The two ground-truth layouts: `articles` (`{id: {articleBody, url}}`, the original 61
 * pages and extraction-more) and `wcxb` (`{id: {url, page_type, title, main_content, with,
 * without}}`, the page type possibly in pages.tsv instead).
 */
export type Layout = 'articles' | 'wcxb';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

function isWcxbEntry(entry: unknown, typeInTsv: boolean): boolean {
  return (
    isRecord(entry) &&
    typeof entry.main_content === 'string' &&
    isStrings(entry.with) &&
    isStrings(entry.without) &&
    (typeof entry.page_type === 'string' || typeInTsv)
  );
}

const isArticleEntry = (entry: unknown): boolean => isRecord(entry) && typeof entry.articleBody === 'string';

/**
 * Which layout every entry follows; `tsvColumns` are pages.tsv's (a WCXB entry may leave its
 * type to its `page_type` column). A set that mixes them, or follows neither, is refused
 * rather than scored by the wrong metric.
 */
export function detectLayout(entries: readonly unknown[], tsvColumns: readonly string[]): Layout {
  const typeInTsv = tsvColumns.includes('page_type');
  if (entries.length > 0 && entries.every((e) => isWcxbEntry(e, typeInTsv))) return 'wcxb';
  if (entries.every(isArticleEntry)) return 'articles';
  throw new Error(
    'ground-truth.json follows neither layout: every entry needs `articleBody`, or `main_content`, `with`, `without` and a page type (its `page_type` or a pages.tsv column)',
  );
}

/** pages.tsv as column names and id → row (cell by column name); empty without the file. */
function readTsv(dir: string): { columns: string[]; rows: Map<string, Map<string, string>> } {
  const rows = new Map<string, Map<string, string>>();
  let text: string;
  try {
    text = readFileSync(join(dir, 'pages.tsv'), 'utf8');
  } catch {
    return { columns: [], rows };
  }
  const [head, ...lines] = text.split('\n');
  const columns = (head ?? '').split('\t').map((c) => c.trim());
  const id = columns.indexOf('id');
  if (id < 0) return { columns, rows };
  for (const line of lines) {
    const cells = line.replace(/\r$/, '').split('\t');
    const page = cells[id];
    if (page) rows.set(page, new Map(columns.map((c, i) => [c, cells[i] ?? ''])));
  }
  return { columns, rows };
}

/** Loads a set from its own folder (evaluation data is never copied into the repo). */
export function loadDataset(dir: string): BenchPage[] {
  const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<string, unknown>;
  const tsv = readTsv(dir);
  const layout = detectLayout(Object.values(truth), tsv.columns);
  const files = readdirSync(join(dir, 'html'))
    .filter((f) => f.endsWith('.html.gz'))
    .sort();
  return files.flatMap((file) => {
    const id = file.slice(0, -'.html.gz'.length);
    const entry = truth[id] as Record<string, unknown> | undefined;
    if (entry === undefined) return [];
    const body = new Uint8Array(gunzipSync(readFileSync(join(dir, 'html', file))));
    const row = tsv.rows.get(id);
    // A source only counts when it is set: an empty cell is as good as no column.
    const source = row?.get('source') || 'all';
    const url = String(entry.url ?? row?.get('url') ?? '');
    if (layout === 'articles') return [{ id, source, url, truth: entry.articleBody as string, body }];
    const reference = entry.main_content as string;
    const wcxb: WcxbTruth = {
      pageType: typeof entry.page_type === 'string' ? entry.page_type : (row?.get('page_type') ?? ''),
      reference,
      with: entry.with as string[],
      without: entry.without as string[],
    };
    return [{ id, source, url, truth: reference, body, wcxb }];
  });
}

export type Split = 'all' | 'dev' | 'holdout';

/**
 * A fixed quarter of a set, chosen by a hash of the page id, is held out: tune on `dev`, look
 * at `holdout` last. Multi-source sets (pages.tsv names sources) and WCXB sets (which name
 * none) are split; any other set (the 61 original development pages) is development data
 * whole, and every split keeps all of it.
 */
export function isHeldOut(id: string): boolean {
  return createHash('sha256').update(id).digest().readUInt8(0) < 64;
}

export function splitPages(pages: BenchPage[], split: Split): BenchPage[] {
  const splittable = pages.some((p) => p.wcxb !== undefined) || pages.some((p) => p.source !== 'all');
  if (split === 'all' || !splittable) return pages;
  return pages.filter((p) => isHeldOut(p.id) === (split === 'holdout'));
}
