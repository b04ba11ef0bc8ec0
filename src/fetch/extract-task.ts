import { isDomainError, type ErrorKind } from '../domain/errors.ts';
import { decodeBody } from '../extract/charset.ts';
import { extractDocument, type ExtractedDocument, type ExtractInput } from '../extract/extract-document.ts';
import { boundMarkup } from '../extract/markup-bounds.ts';
import { limitNesting } from '../extract/markup-nesting.ts';
import { parseContentType } from '../extract/media-type.ts';
import { htmlFacts, markdownFacts } from '../extract/page-facts.ts';
import { htmlLinks, type PageLinks } from '../extract/page-links.ts';

/**
 * One page's extraction as an extraction worker runs it (see extract-worker.mjs), and the
 * shape of its answer. A crawl also wants the links of the raw HTML (navigation that
 * extraction drops); they are read here, in the worker, so no page is ever parsed on the
 * main thread, and from no more of the page than extraction itself parses.
 */

export interface ExtractTask extends ExtractInput {
  /** Also read the links of an HTML page (src/extract/page-links.ts). */
  links?: boolean;
}

export interface ExtractResult {
  doc: ExtractedDocument;
  /** Present when asked for and the page was HTML. */
  links?: PageLinks;
}

/** Runs one page through extraction (a plain function: `scout extract` and unit tests call it in-process). */
export type ExtractRun = (task: ExtractTask, signal?: AbortSignal) => Promise<ExtractResult>;

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

export const extractInProcess: ExtractRun = async (task) => {
  const { links, facts, ...input } = task;
  const extracted = await extractDocument(input);
  const isHtml = extracted.contentType !== null && HTML_TYPES.has(extracted.contentType);
  let markup: string | undefined;
  // The same bounds as extraction (markup-bounds.ts, markup-nesting.ts): the raw page can be 20 MB of tags.
  const html = (): string => {
    markup ??= limitNesting(
      boundMarkup(decodeBody(input.body, parseContentType(input.contentType)?.charset ?? null, true)).markup,
      { xml: false },
    );
    return markup;
  };
  const doc =
    facts === true
      ? {
          ...extracted,
          facts: isHtml ? htmlFacts(html(), input.url) : markdownFacts(extracted.markdown, input.url),
        }
      : extracted;
  if (links !== true || !isHtml) return { doc };
  return { doc, links: htmlLinks(html(), input.url) };
};

/**
 * Errors come back as values, not throws: a thrown DomainError crosses the thread boundary
 * as a plain Error (structured clone keeps name and message, drops `kind`), and its kind
 * (415 for an image or a damaged PDF) must survive. Anything else is a bug: its message
 * comes back without a kind, and the main thread rethrows it as a plain Error (a 500).
 */
export type ExtractReply =
  | { ok: true; result: ExtractResult }
  | { ok: false; kind: ErrorKind | null; message: string; reason?: string };

export async function runExtractTask(task: ExtractTask): Promise<ExtractReply> {
  try {
    return { ok: true, result: await extractInProcess(task) };
  } catch (e) {
    if (isDomainError(e))
      return { ok: false, kind: e.kind, message: e.message, ...(e.reason === undefined ? {} : { reason: e.reason }) };
    return { ok: false, kind: null, message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}
