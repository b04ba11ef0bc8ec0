import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One synthetic page of a fixture set: its HTML and its ground-truth entry. */
export interface FixturePage {
  id: string;
  html: string;
  entry: Record<string, unknown>;
}

const written: string[] = [];

/** Removes every folder writeSet made (call it in afterAll). */
export function removeSets(): void {
  for (const dir of written.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Writes a benchmark folder as bench:extract reads it (ground-truth.json, html/<id>.html.gz,
 * optionally pages.tsv) into a fresh temporary directory, and returns its path. The pages are
 * written here by the tests: evaluation data is never copied into the repository.
 */
export function writeSet(pages: FixturePage[], tsv?: string[][]): string {
  const dir = mkdtempSync(join(tmpdir(), 'scout-bench-set-'));
  written.push(dir);
  mkdirSync(join(dir, 'html'));
  for (const page of pages) writeFileSync(join(dir, 'html', `${page.id}.html.gz`), gzipSync(page.html));
  writeFileSync(join(dir, 'ground-truth.json'), JSON.stringify(Object.fromEntries(pages.map((p) => [p.id, p.entry]))));
  if (tsv !== undefined) writeFileSync(join(dir, 'pages.tsv'), `${tsv.map((row) => row.join('\t')).join('\n')}\n`);
  return dir;
}

/** A small page whose main content is `paragraphs`, between a navigation bar and a footer. */
export function pageHtml(title: string, paragraphs: string[]): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/contact">Contact</a></nav>
<main><article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</article></main>
<footer><p>Copyright Example Corp. All rights reserved.</p></footer>
</body></html>`;
}

/** A WCXB-shaped ground-truth entry. */
export function wcxbEntry(
  pageType: string,
  mainContent: string,
  snippets: { with?: string[]; without?: string[] } = {},
): Record<string, unknown> {
  return {
    url: `https://example.com/${pageType}`,
    page_type: pageType,
    title: pageType,
    main_content: mainContent,
    with: snippets.with ?? [],
    without: snippets.without ?? [],
  };
}
