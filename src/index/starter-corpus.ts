import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { docUrl } from '../domain/docs-url.ts';
import type { DocumentRow } from '../store/index-rows.ts';
import { checkDocument } from './index-document.ts';
import type { LocalIndexWriter } from './local-index-api.ts';
import { markdownSections } from './markdown-sections.ts';

/**
 * Indexes Scout's own Markdown docs (`<docsDir>/*.md`) so a newcomer's first search finds
 * something: one document per `##` section (plus each file's lead text), titled
 * `File title — Section`, language `en`, no date or country, at
 * `https://scout.invalid/docs/<file>#<anchor>` (domain/docs-url.ts: the same for every
 * process, whatever its port or public URL, and answered by Scout's own fetch). The
 * previous starter corpus is replaced as a whole in one transaction, so renamed or deleted
 * sections do not linger and imported documents are never touched; unchanged sections are
 * not written again. A missing folder leaves an empty starter corpus. Returns the number of
 * documents indexed.
 */
export async function indexStarterCorpus(
  index: Pick<LocalIndexWriter, 'replaceSource'>,
  docsDir: string,
): Promise<number> {
  const rows: DocumentRow[] = [];
  for (const file of await markdownFiles(docsDir)) {
    const markdown = await readFile(join(docsDir, file), 'utf8');
    for (const s of markdownSections(markdown, file.replace(/\.md$/i, ''))) {
      const checked = checkDocument({ url: docUrl(file, s.anchor), title: s.title, content: s.text, language: 'en' });
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
