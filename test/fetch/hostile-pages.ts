import { makeFlatePdf } from '../extract/make-flate-pdf.ts';
import { makePdf } from '../extract/make-pdf.ts';

/**
 * Bodies that froze or killed the process before extraction moved to worker threads and
 * got input bounds (issue "Safe under hostile load"): each is about the 20 MB that the
 * fetch pipeline decodes at most, and compresses to a few hundred bytes or less.
 */

/** Fetch's decoded-body cap (src/fetch/http-fetch.ts DEFAULT_LIMITS.maxDecodedBytes). */
const DECODED_CAP = 20 * 1024 * 1024;

const fill = (head: string, unit: string, tail: string, size = DECODED_CAP): string =>
  head + unit.repeat(Math.floor((size - head.length - tail.length) / unit.length)) + tail;

export interface HostilePage {
  name: string;
  contentType: string;
  body: Uint8Array;
}

const text = (name: string, contentType: string, body: string): HostilePage => ({
  name,
  contentType,
  body: new TextEncoder().encode(body),
});

/** A PDF whose one page draws a content stream that inflates to `mb` MB (about 1,000:1). */
export function pdfWithHugeStream(mb: number): Uint8Array {
  const unit = '(x) Tj ';
  // Padded to whole units, so the fill after it stays aligned on `(x) Tj `.
  const head = 'BT /F1 12 Tf 14 TL 72 720 Td (Start of the page) Tj T* '.padEnd(63);
  const content = Buffer.alloc(Math.floor((mb * 1024 * 1024) / unit.length) * unit.length + 3, unit);
  content.write(head);
  content.write(' ET', content.length - 3);
  return makeFlatePdf([content]);
}

const ROW = '<tr><td>cell</td><td>1</td><td>2</td><td>3</td></tr>';

/** Built on demand (a few hundred MB pass through memory for the PDF bomb). */
export const HOSTILE_PAGES = {
  'dense markup': () => text('dense markup', 'text/html', fill('<html><body>', '<p>&nbsp;<br></p>', '</body></html>')),
  'br flood': () => text('br flood', 'text/html', fill('<html><body>', '<br>', '</body></html>')),
  'deep nesting': () => text('deep nesting', 'text/html', fill('<html><body>', '<div>', 'deep</body></html>')),
  'huge table': () => text('huge table', 'text/html', fill('<html><body><table>', ROW, '</table></body></html>')),
  'big article': () =>
    text(
      'big article',
      'text/html',
      fill(
        '<html><body><article>',
        '<p>Words of an article with <a href="/x">a link</a> and <b>bold</b> text in it.</p>\n',
        '</article></body></html>',
      ),
    ),
  'feed flood': () =>
    text(
      'feed flood',
      'application/rss+xml',
      fill(
        '<rss><channel><title>t</title>',
        '<item><title>i</title><link>https://e.com/</link><description>&lt;b&gt;d&lt;/b&gt;</description></item>',
        '</channel></rss>',
      ),
    ),
  'many-page PDF': () => ({
    name: 'many-page PDF',
    contentType: 'application/pdf',
    body: makePdf(
      Array.from({ length: 20_000 }, (_, i) => [`Page ${i + 1}`]),
      'Many pages',
    ),
  }),
  'PDF with a huge stream': () => ({
    name: 'PDF with a huge stream',
    contentType: 'application/pdf',
    body: pdfWithHugeStream(256),
  }),
} satisfies Record<string, () => HostilePage>;
