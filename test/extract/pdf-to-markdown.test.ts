import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.ts';
import { extractDocument } from '../../src/extract/extract-document.ts';
import { pdfToMarkdown } from '../../src/extract/pdf-to-markdown.ts';
import { makePdf } from './make-pdf.ts';

/** The one-page PDF with its page tree pointing at an object that does not exist (same length, so offsets hold). */
function brokenPageTree(): Uint8Array {
  const text = new TextDecoder('latin1').decode(makePdf([['Hello']], 'Broken'));
  expect(text).toContain('/Kids [4 0 R]');
  return Uint8Array.from(text.replace('/Kids [4 0 R]', '/Kids [9 0 R]'), (c) => c.charCodeAt(0));
}

describe('pdfToMarkdown', () => {
  it('extracts the text of each page and the title', async () => {
    const pdf = await pdfToMarkdown(makePdf([['First page'], ['Second page']], 'Report'));
    expect(pdf).toEqual({ title: 'Report', markdown: 'First page\n\n---\n\nSecond page', truncated: false });
  });

  it('answers 415 when the PDF opens but its pages cannot be read', async () => {
    const error = await pdfToMarkdown(brokenPageTree()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('unsupported_media');
    expect((error as DomainError).message).toMatch(/text could not be extracted/);
    const input = { body: brokenPageTree(), contentType: 'application/pdf', url: 'https://e.com/a.pdf' };
    const viaExtract = await extractDocument(input).catch((e: unknown) => e);
    expect((viaExtract as DomainError).kind).toBe('unsupported_media');
  });
});
