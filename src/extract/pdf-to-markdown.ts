import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { DomainError } from '../domain/errors.ts';

export interface PdfExtract {
  title: string;
  markdown: string;
}

/** Between pages: a thematic break, so page boundaries stay visible without inventing headings. */
export const PAGE_SEPARATOR = '\n\n---\n\n';

function tidy(pageText: string): string {
  return pageText
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * A PDF's text with pdf.js (through unpdf): pages in order, separated by `---`; the title
 * from the document info dictionary. pdf.js takes ownership of the buffer it is given,
 * hence the copy. A PDF that cannot be read (damaged, encrypted, cut at the size cap) is a
 * 415 that says so.
 */
export async function pdfToMarkdown(body: Uint8Array): Promise<PdfExtract> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // verbosity 0: pdf.js otherwise prints recovery warnings to the console.
    pdf = await getDocumentProxy(new Uint8Array(body), { verbosity: 0 });
  } catch {
    throw new DomainError(
      'unsupported_media',
      'the PDF could not be read (damaged, encrypted or cut at the size limit); fetch a different URL',
    );
  }
  try {
    const [{ text }, meta] = await Promise.all([extractText(pdf, { mergePages: false }), getMeta(pdf)]);
    const title = typeof meta.info?.Title === 'string' ? meta.info.Title.trim() : '';
    const pages = text.map(tidy).filter((page) => page !== '');
    return { title, markdown: pages.join(PAGE_SEPARATOR) };
  } finally {
    await pdf.destroy();
  }
}
