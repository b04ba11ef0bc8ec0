import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export interface BenchPage {
  id: string;
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
  const files = readdirSync(join(dir, 'html')).filter((f) => f.endsWith('.html.gz')).sort();
  return files.flatMap((file) => {
    const id = file.slice(0, -'.html.gz'.length);
    const entry = truth[id];
    if (entry === undefined) return [];
    const body = new Uint8Array(gunzipSync(readFileSync(join(dir, 'html', file))));
    return [{ id, url: entry.url, truth: entry.articleBody, body }];
  });
}
