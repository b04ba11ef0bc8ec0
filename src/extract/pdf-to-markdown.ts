import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { DomainError } from '../domain/errors.ts';
import { isBlank, trimEndWhere } from './text-scan.ts';

export interface PdfExtract {
  title: string;
  markdown: string;
}

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

/**
 * A PDF's text with pdf.js (through unpdf): pages in order, separated by `---`; the title
 * from the document info dictionary. pdf.js takes ownership of the buffer it is given,
 * hence the copy. A PDF that cannot be read (damaged, encrypted, cut at the size cap) is a
 * 415 that says so, whether pdf.js fails to open it or fails later on a page or its
 * metadata (a broken page tree or content stream opens fine).
 */
export async function pdfToMarkdown(body: Uint8Array): Promise<PdfExtract> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // verbosity 0: pdf.js otherwise prints recovery warnings to the console.
    pdf = await getDocumentProxy(new Uint8Array(body), { verbosity: 0 });
  } catch {
    throw unreadable('could not be read (damaged, encrypted or cut at the size limit)');
  }
  try {
    const [{ text }, meta] = await Promise.all([extractText(pdf, { mergePages: false }), getMeta(pdf)]);
    const title = typeof meta.info?.Title === 'string' ? meta.info.Title.trim() : '';
    const pages = text.map(tidy).filter((page) => page !== '');
    return { title, markdown: pages.join(PAGE_SEPARATOR) };
  } catch {
    throw unreadable('opened but its text could not be extracted (damaged pages or metadata)');
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}
