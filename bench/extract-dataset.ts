import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export interface BenchPage {
  id: string;
  /** The benchmark a page comes from (pages.tsv's `source`), when the set says; else 'all'. */
  source: string;
  url: string;
  truth: string;
  body: Uint8Array;
}

interface TruthEntry {
  articleBody: string;
  url: string;
}

/** Loads the development set from its own folder (it is never copied into the repo). */
export function loadDataset(dir: string): BenchPage[] {
  const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<string, TruthEntry>;
  const files = readdirSync(join(dir, 'html'))
    .filter((f) => f.endsWith('.html.gz'))
    .sort();
  const sources = readSources(dir);
  return files.flatMap((file) => {
    const id = file.slice(0, -'.html.gz'.length);
    const entry = truth[id];
    if (entry === undefined) return [];
    const body = new Uint8Array(gunzipSync(readFileSync(join(dir, 'html', file))));
    return [{ id, source: sources.get(id) ?? 'all', url: entry.url, truth: entry.articleBody, body }];
  });
}

/** id → source from pages.tsv (a set made of several benchmarks has one); empty without it. */
function readSources(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(join(dir, 'pages.tsv'), 'utf8');
  } catch {
    return out;
  }
  const [head, ...lines] = text.split('\n');
  const cols = (head ?? '').split('\t');
  const id = cols.indexOf('id');
  const source = cols.indexOf('source');
  if (id < 0 || source < 0) return out;
  for (const line of lines) {
    const cells = line.split('\t');
    const [page, from] = [cells[id], cells[source]];
    if (page && from) out.set(page, from);
  }
  return out;
}

export type Split = 'all' | 'dev' | 'holdout';

/**
 * A fixed quarter of a multi-source set (one with pages.tsv), chosen by a hash of the page id,
 * is held out: tune on `dev`, look at `holdout` last. A set without sources (the 61 original
 * development pages) is development data whole, and every split keeps all of it.
 */
export function isHeldOut(id: string): boolean {
  return createHash('sha256').update(id).digest().readUInt8(0) < 64;
}

export function splitPages(pages: BenchPage[], split: Split): BenchPage[] {
  if (split === 'all' || pages.every((p) => p.source === 'all')) return pages;
  return pages.filter((p) => isHeldOut(p.id) === (split === 'holdout'));
}
