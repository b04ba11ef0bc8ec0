import { describe, expect, it } from 'vitest';
import { pdfToMarkdown } from '../../src/extract/pdf-to-markdown.ts';
import { limitPdfStreams, MAX_PDF_STREAM_BYTES } from '../../src/extract/pdf-streams.ts';
import { pdfWithHugeStream } from '../fetch/hostile-pages.ts';
import { makeFlatePdf, showLines } from './make-flate-pdf.ts';
import { makePdf } from './make-pdf.ts';

const limits = { maxStreamBytes: 1024 * 1024, maxDecodedBytes: 2 * 1024 * 1024, maxStreams: 100 };
/** A content stream of about `kb` KB that shows one line first. */
const padded = (line: string, kb: number): string =>
  `${showLines([line])} ${'0 0 m '.repeat(Math.ceil((kb * 1024) / 6))}`;

describe('limitPdfStreams', () => {
  it('returns the very same bytes when every stream fits', () => {
    const plain = makePdf([['Hello']], 'Plain');
    expect(limitPdfStreams(plain, limits)).toEqual({ bytes: plain, truncated: false });
    const packed = makeFlatePdf([showLines(['One']), showLines(['Two'])]);
    expect(limitPdfStreams(packed, limits).bytes).toBe(packed);
  });

  it('empties a stream that decodes past the per-stream bound, in place', async () => {
    const pdf = makeFlatePdf([showLines(['Kept page']), padded('Bomb page', 1500)]);
    const bounded = limitPdfStreams(pdf, limits);
    expect(bounded.truncated).toBe(true);
    expect(bounded.bytes).not.toBe(pdf);
    expect(bounded.bytes.length).toBe(pdf.length);
    expect(pdf).toEqual(makeFlatePdf([showLines(['Kept page']), padded('Bomb page', 1500)])); // the input is not modified
    const { markdown } = await pdfToMarkdown(bounded.bytes);
    expect(markdown).toBe('Kept page');
  });

  it('empties the streams past the budget for the whole file', async () => {
    const pages = ['First', 'Second', 'Third', 'Fourth'].map((line) => padded(line, 800));
    const bounded = limitPdfStreams(makeFlatePdf(pages), limits);
    expect(bounded.truncated).toBe(true);
    expect((await pdfToMarkdown(bounded.bytes)).markdown).toBe('First\n\n---\n\nSecond');
  });

  it('charges decoding work whether or not the stream is kept, and sizes at most maxStreams streams', async () => {
    const bombs = Array.from({ length: 3 }, (_, i) => padded(`Bomb ${i}`, 1500));
    const afterBombs = limitPdfStreams(makeFlatePdf([...bombs, showLines(['Small'])]), limits);
    expect((await pdfToMarkdown(afterBombs.bytes)).markdown).toBe('');
    const many = limitPdfStreams(makeFlatePdf([showLines(['One']), showLines(['Two'])]), { ...limits, maxStreams: 1 });
    expect(many.truncated).toBe(true);
    expect((await pdfToMarkdown(many.bytes)).markdown).toBe('One');
  });

  it('empties large images without calling the text incomplete', async () => {
    const image = {
      dict: '/Type /XObject /Subtype /Image /Width 1000 /Height 1000 /ColorSpace /DeviceGray /BitsPerComponent 8',
      data: Buffer.alloc(1_000_000),
    };
    const pdf = makeFlatePdf([showLines(['Text page'])], [image]);
    const bounded = limitPdfStreams(pdf, limits);
    expect(bounded.bytes).not.toBe(pdf);
    expect(bounded.truncated).toBe(false);
    expect((await pdfToMarkdown(bounded.bytes)).markdown).toBe('Text page');
  });

  it('leaves encrypted files to pdf.js (their streams cannot be sized before decryption)', () => {
    const pdf = Buffer.from(makeFlatePdf([padded('Bomb', 1500)]));
    const marked = Buffer.from(
      pdf.toString('latin1').replace('/Root 1 0 R >>', '/Root 1 0 R /Encrypt 9 0 R >>'),
      'latin1',
    );
    expect(limitPdfStreams(marked, limits)).toEqual({ bytes: marked, truncated: false });
  });

  it('turns a 1,000:1 Flate bomb into an empty page in well under a second', async () => {
    const bomb = pdfWithHugeStream(64);
    expect(bomb.length).toBeLessThan(200_000);
    const doc = await pdfToMarkdown(bomb);
    expect(doc).toEqual({ title: '', markdown: '', truncated: true });
    expect(MAX_PDF_STREAM_BYTES).toBeLessThan(64 * 1024 * 1024);
  });
});
