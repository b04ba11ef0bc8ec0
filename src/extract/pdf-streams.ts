import { decodeFilter, EMPTY_DATA, EXPANDING } from './pdf-filters.ts';
import { forwardFinder } from './text-scan.ts';
import { must } from '../domain/must.ts';

/**
 * Bounds how many bytes pdf.js may decode from a PDF's streams, before pdf.js sees it.
 * A compressed stream is a bomb: Flate reaches about 1,000:1, so a 10 MB download can
 * carry 10 GB of page content. pdf.js inflates it in JavaScript into ArrayBuffers, which
 * no heap limit counts, and reads every operator (a 256 MB content stream took 24 s and
 * 650 MB; 16 MB took 2 s). So every stream that uses an expanding filter (Flate, Brotli,
 * LZW, RunLength, alone or in a chain) is decoded here with a cap, and one that decodes
 * to more than MAX_PDF_STREAM_BYTES, or past MAX_PDF_DECODED_BYTES for the whole file,
 * has its data overwritten in place with data that decodes to nothing: offsets, lengths
 * and the xref table stay valid, pdf.js reads an empty stream (a page without that
 * content, a font it replaces), and the answer says `truncated`. Decoding work counts
 * against the budget whether the stream is kept or not, so many small bombs cost no more
 * than one, and at most MAX_PDF_STREAMS streams are sized; later ones are emptied.
 *
 * Images are never decoded for text: one that decodes to more than IMAGE_KEEP_BYTES (or a
 * content stream wearing /Subtype /Image) is emptied without making the text incomplete.
 * A stream that does not decode is left alone (pdf.js fails on it too) but its cap is
 * charged, since the decoder may have worked up to it before failing.
 *
 * Encrypted files are left as they are: their streams can only be sized after decryption,
 * which pdf.js does itself (files with an empty user password open). For them, and for
 * pages that are slow for other reasons, the fetch deadline and the worker's heap limit
 * remain the bound (src/fetch/extract-pool.ts).
 */

/** One stream's decoded size at most: a page's text content, a font (a few MB at most). */
export const MAX_PDF_STREAM_BYTES = 8 * 1024 * 1024;
/** All sized streams together: about 3 s of pdf.js text extraction on a slow core. */
export const MAX_PDF_DECODED_BYTES = 24 * 1024 * 1024;
/** Streams sized at most (a 1,000-page file has a few thousand); each costs a zlib call. */
export const MAX_PDF_STREAMS = 20_000;
/** An image stream decoding to more than this is emptied (text extraction never reads it). */
const IMAGE_KEEP_BYTES = 64 * 1024;

export interface StreamLimits {
  maxStreamBytes: number;
  maxDecodedBytes: number;
  maxStreams: number;
}

const DEFAULT_LIMITS: StreamLimits = {
  maxStreamBytes: MAX_PDF_STREAM_BYTES,
  maxDecodedBytes: MAX_PDF_DECODED_BYTES,
  maxStreams: MAX_PDF_STREAMS,
};

export interface BoundedPdf {
  /** The file, with oversized streams emptied (a copy when anything changed). */
  bytes: Uint8Array;
  truncated: boolean;
}

const FILTER = /\/Filter\s*(?:\[([^\]]{0,1024})\]|\/([^\s/[\]<>()]+))/;
const IMAGE = /\/Subtype\s*\/Image\b/;

/** The stream's filters in decoding order, from its dictionary's text. */
function filtersOf(dict: string): string[] {
  const m = FILTER.exec(dict);
  if (m === null) return [];
  if (m[2] !== undefined) return [m[2]];
  return [...(m[1] ?? '').matchAll(/\/([^\s/[\]<>()]+)/g)].map((f) => must(f[1], "a filter's name"));
}

/** Bytes decoded through the chain up to its last expanding filter; `cap + 1` when past the cap, null when unknowable. */
function decodedSize(filters: string[], data: Uint8Array, cap: number): number | null {
  const last = filters.reduce((found, name, i) => (EXPANDING.has(name) ? i : found), -1);
  let current = data;
  for (const name of filters.slice(0, last + 1)) {
    const out = decodeFilter(name, current, cap);
    if (out === 'too_large') return cap + 1;
    if (out === 'undecodable') return null;
    current = out;
  }
  return current.length;
}

const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/.test(c);

/**
 * Whether the trailer pdf.js starts from (the one `startxref` points at: an xref table's
 * `trailer`, or an xref stream's dictionary) names an /Encrypt dictionary.
 */
function encrypted(text: string): boolean {
  const at = text.lastIndexOf('startxref');
  const offset = at < 0 ? Number.NaN : Number(/^startxref\s+(\d+)/.exec(text.slice(at, at + 40))?.[1]);
  if (!Number.isSafeInteger(offset) || offset >= text.length) return false;
  const from = text.startsWith('xref', offset) ? text.indexOf('trailer', offset) : offset;
  if (from < 0) return false;
  const stop = [text.indexOf('startxref', from), text.indexOf('stream', from)].filter((i) => i >= 0);
  const window = text.slice(from, Math.min(from + 8192, ...stop));
  return /\/Encrypt\s*(?:\d+\s+\d+\s+R|<<)/.test(window);
}

export function limitPdfStreams(body: Uint8Array, limits: StreamLimits = DEFAULT_LIMITS): BoundedPdf {
  // latin1: one character per byte, so string indexes are byte offsets.
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
  if (encrypted(text)) return { bytes: body, truncated: false };
  const nextObj = forwardFinder((from) => text.indexOf(' obj', from));
  const nextEnd = forwardFinder((from) => text.indexOf('endstream', from));
  let out: Uint8Array | null = null;
  let budget = limits.maxDecodedBytes;
  let sized = 0;
  let truncated = false;
  let dictFrom = 0; // a dictionary starts after the last ` obj` and after the previous stream
  let at = text.indexOf('stream');
  while (at >= 0) {
    for (let o = nextObj(dictFrom); o >= 0 && o < at; o = nextObj(o + 4)) dictFrom = o + 4;
    let dictEnd = at;
    while (dictEnd > dictFrom && isSpace(text[dictEnd - 1])) dictEnd -= 1;
    if (dictEnd < dictFrom + 2 || text.slice(dictEnd - 2, dictEnd) !== '>>') {
      at = text.indexOf('stream', at + 6); // `endstream`, or the word in a string
      continue;
    }
    const dict = text.slice(dictFrom, dictEnd);
    let start = at + 6;
    if (text[start] === '\r') start += 1;
    if (text[start] === '\n') start += 1;
    const found = nextEnd(start);
    const end = found < 0 ? text.length : found;
    dictFrom = end;
    at = found < 0 ? -1 : text.indexOf('stream', end + 9);
    const filters = filtersOf(dict);
    if (!filters.some((f) => EXPANDING.has(f))) continue;
    const image = IMAGE.test(dict);
    const cap = Math.min(image ? IMAGE_KEEP_BYTES : limits.maxStreamBytes, budget);
    // Decoded to the end of the file, not to `endstream`: the data may contain that word
    // and /Length may be indirect; each decoder stops at the end of its own data.
    const size = sized < limits.maxStreams ? decodedSize(filters, body.subarray(start), cap) : cap + 1;
    sized += 1;
    budget -= Math.min(size ?? cap, cap);
    if (size === null || size <= cap) continue;
    // filters has an expanding one (checked above).
    const empty = EMPTY_DATA.get(must(filters[0], "a stream's first filter"));
    if (empty === undefined || end < start + empty.length) continue;
    out ??= new Uint8Array(body);
    out.set(empty, start);
    if (!image) truncated = true;
  }
  return { bytes: out ?? body, truncated };
}
