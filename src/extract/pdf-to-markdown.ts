import { getDocumentProxy, getMeta } from 'unpdf';
import { DomainError } from '../domain/errors.ts';
import { limitPdfStreams } from './pdf-streams.ts';
import { isBlank, trimEndWhere } from './text-scan.ts';

export interface PdfExtract {
  title: string;
  markdown: string;
  /** Pages past MAX_PDF_PAGES, or streams past the bounds of pdf-streams.ts, were not read. */
  truncated: boolean;
}

/**
 * Pages read at most, in order. A page costs pdf.js about 2.5 ms even when empty (a
 * 20,000-page file took minutes and 4 GB when every page was read at once); what a page
 * holds is bounded separately (pdf-streams.ts). Longer documents (manuals, books) lose
 * their end, which is past the largest max_chars for all but sparse pages anyway.
 */
export const MAX_PDF_PAGES = 1_000;

/**
 * Time spent reading pages at most, checked between pages. The stream bounds cap what
 * one page decodes, not how often: a thousand pages may all draw the same 8 MB content
 * stream, and pdf.js reads it again for each. One page at most runs past this.
 */
export const MAX_PDF_READ_MS = 2_500;

/** Between pages: a thematic break, so page boundaries stay visible without inventing headings. */
export const PAGE_SEPARATOR = '\n\n---\n\n';

/** Line endings normalised, trailing blanks dropped (a loop: `[ \t]+\n` is quadratic on long runs). */
function tidy(pageText: string): string {
  const lines = pageText.replace(/\r\n?/g, '\n').split('\n');
  const last = lines.length - 1;
  return lines
    .map((line, i) => (i < last ? trimEndWhere(line, isBlank) : line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function unreadable(what: string): DomainError {
  return new DomainError('unsupported_media', `the PDF ${what}; fetch a different URL`);
}

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** One page's text as unpdf's extractText joins it: items in order, a newline after each line end. */
async function pageText(pdf: PdfDocument, pageNumber: number): Promise<string> {
  const page = await pdf.getPage(pageNumber);
  const content = await page.getTextContent();
  page.cleanup();
  return content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
}

/**
 * A PDF's text with pdf.js (through unpdf): pages in order (one at a time, at most
 * MAX_PDF_PAGES and MAX_PDF_READ_MS), separated by `---`; the title from the document info dictionary. Streams
 * that decode past the bounds of pdf-streams.ts are emptied first. pdf.js takes ownership
 * of the buffer it is given, hence the copy (limitPdfStreams copies when it changes
 * anything). A PDF that cannot be read (damaged, encrypted, cut at the size cap) is a 415
 * that says so, whether pdf.js fails to open it or fails later on a page or its metadata
 * (a broken page tree or content stream opens fine).
 */
export async function pdfToMarkdown(body: Uint8Array): Promise<PdfExtract> {
  const bounded = limitPdfStreams(body);
  let pdf: PdfDocument;
  try {
    // verbosity 0: pdf.js otherwise prints recovery warnings to the console.
    pdf = await getDocumentProxy(bounded.bytes === body ? new Uint8Array(body) : bounded.bytes, { verbosity: 0 });
  } catch {
    throw unreadable('could not be read (damaged, encrypted or cut at the size limit)');
  }
  try {
    const meta = await getMeta(pdf);
    const text: string[] = [];
    const last = Math.min(pdf.numPages, MAX_PDF_PAGES);
    const stopAt = performance.now() + MAX_PDF_READ_MS;
    while (text.length < last && (text.length === 0 || performance.now() < stopAt))
      text.push(await pageText(pdf, text.length + 1));
    const title = typeof meta.info?.Title === 'string' ? meta.info.Title.trim() : '';
    const pages = text.map(tidy).filter((page) => page !== '');
    return { title, markdown: pages.join(PAGE_SEPARATOR), truncated: bounded.truncated || pdf.numPages > text.length };
  } catch {
    throw unreadable('opened but its text could not be extracted (damaged pages or metadata)');
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}
