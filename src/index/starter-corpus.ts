import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkDocument, type DocumentRow } from './index-document.ts';
import type { LocalIndexWriter } from './local-index-api.ts';
import { markdownSections } from './markdown-sections.ts';

export interface StarterCorpusOptions {
  /**
   * Origin the documents' urls start with (results must carry http(s) urls):
   * `<baseUrl>/docs/<file>#<anchor>`. Default `http://localhost:8080`; pass the public
   * URL Scout is reached at, or the repository's web address.
   */
  baseUrl?: string;
}

export const DEFAULT_STARTER_BASE_URL = 'http://localhost:8080';

/**
 * Indexes Scout's own Markdown docs (`<docsDir>/*.md`) so a newcomer's first search finds
 * something: one document per `##` section (plus each file's lead text), titled
 * `File title — Section`, language `en`, no date or country. The previous starter corpus
 * is replaced as a whole in one transaction, so renamed or deleted sections do not linger
 * and imported documents are never touched. A missing folder leaves an empty starter
 * corpus. Returns the number of documents indexed.
 */
export async function indexStarterCorpus(
  index: Pick<LocalIndexWriter, 'replaceSource'>,
  docsDir: string,
  options: StarterCorpusOptions = {},
): Promise<number> {
  const base = (options.baseUrl ?? DEFAULT_STARTER_BASE_URL).replace(/\/+$/, '');
  const rows: DocumentRow[] = [];
  for (const file of await markdownFiles(docsDir)) {
    const markdown = await readFile(join(docsDir, file), 'utf8');
    const page = `${base}/docs/${encodeURIComponent(file)}`;
    for (const s of markdownSections(markdown, file.replace(/\.md$/i, ''))) {
      const url = s.anchor === undefined ? page : `${page}#${encodeURIComponent(s.anchor)}`;
      const checked = checkDocument({ url, title: s.title, content: s.text, language: 'en' });
      if ('row' in checked) rows.push(checked.row);
    }
  }
  return await index.replaceSource('starter', rows);
}

async function markdownFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isFile() && /\.md$/i.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}
