import { must } from './must.ts';
/**
 * The addresses of Scout's own docs in the starter corpus:
 * `https://scout.invalid/docs/<file>.md#<section>`. One fixed origin rather than the public
 * URL of the process that started: every process on a data folder (a server, `scout mcp`
 * in-process, a second server on another port) writes the very same rows, so one starting
 * never rewrites another's documents. `.invalid` is reserved (RFC 2606, RFC 6761): no page on
 * the web can have this address, so Scout's fetch answers it from its own docs/ folder
 * (src/fetch/own-docs.ts) and never goes to the network for it.
 */
export const DOCS_HOST = 'scout.invalid';
export const DOCS_ORIGIN = `https://${DOCS_HOST}`;

/** One path segment of plain characters ending in .md: no traversal, no hidden files. */
export const DOC_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]*\.md$/;

/** `https://scout.invalid/docs/<file>`, with `#<anchor>` for a section. */
export function docUrl(file: string, anchor?: string): string {
  const page = `${DOCS_ORIGIN}/docs/${encodeURIComponent(file)}`;
  return anchor === undefined ? page : `${page}#${encodeURIComponent(anchor)}`;
}

/** Whether `url` is on the docs host (any scheme, no port): Scout answers it, not the network. */
export const isDocsUrl = (url: URL): boolean => url.hostname === DOCS_HOST && url.port === '';

/** The file a docs URL names (`/docs/<file>.md`), or undefined for any other path. */
export function docFileOf(url: URL): string | undefined {
  const m = /^\/docs\/([^/]+)$/.exec(url.pathname);
  if (m === null) return undefined;
  let file: string;
  try {
    file = decodeURIComponent(must(m[1], "a docs URL's file"));
  } catch {
    return undefined;
  }
  return DOC_FILE.test(file) ? file : undefined;
}
