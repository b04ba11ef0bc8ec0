import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { blockToPlainText } from '../content/plain-text.ts';
import { DomainError } from '../domain/errors.ts';
import { docFileOf, isDocsUrl } from '../domain/docs-url.ts';
import { must } from '../domain/must.ts';

/** One of Scout's own docs, as fetch returns it: the file's markdown, as written. */
export interface OwnDocument {
  title: string;
  markdown: string;
}

/** `(url) => the doc`, or undefined when `url` is not on the docs host (a page for the network). */
export type OwnDocsReader = (url: URL) => Promise<OwnDocument | undefined>;

const H1 = /^#\s+(.+?)\s*#*\s*$/m;

/**
 * Answers the starter corpus's URLs (`https://scout.invalid/docs/<file>.md`, see
 * domain/docs-url.ts) from `docsDir`, so an agent can fetch a result of its first search,
 * in-process (`scout mcp`) as over HTTP. Any other path on that host is answered like an
 * origin's 404: there is nothing else there.
 */
export function ownDocsReader(docsDir: string): OwnDocsReader {
  return async (url) => {
    if (!isDocsUrl(url)) return undefined;
    const file = docFileOf(url);
    const missing = new DomainError(
      'upstream',
      `origin answered 404 (Not Found): Scout's docs have no ${url.pathname.slice(0, 200)}`,
    );
    if (file === undefined) throw missing;
    let markdown: string;
    try {
      markdown = await readFile(join(docsDir, file), 'utf8');
    } catch {
      throw missing;
    }
    const text = markdown.replace(/^\uFEFF/, '').trim();
    const h1 = H1.exec(text);
    const title = h1 ? blockToPlainText(must(h1[1], 'the text of an H1 heading')) : file.replace(/\.md$/, '');
    return { title, markdown: text };
  };
}
