import { brotliCompressSync, brotliDecompressSync, constants, deflateSync, inflateSync } from 'node:zlib';
import { must } from '../domain/must.ts';

/**
 * PDF stream filters, decoded here only to learn how large a stream becomes before pdf.js
 * decodes it (see pdf-streams.ts), never to read it. Each decoder stops past `cap` bytes of
 * output, so sizing a bomb costs at most `cap` of memory and time. Flate and Brotli use
 * Node's zlib; the others are a few lines each. Also: for each filter, the shortest data
 * that decodes to nothing, written over a stream that is dropped.
 */

export type FilterResult = Uint8Array | 'too_large' | 'undecodable';

type Decoder = (data: Uint8Array, cap: number) => FilterResult;

const zlibResult = (cap: number, decode: () => Uint8Array): FilterResult => {
  try {
    const out = decode();
    return out.length > cap ? 'too_large' : out;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? 'too_large' : 'undecodable';
  }
};

// SYNC_FLUSH: a stream cut short (pdf.js reads those too) yields what it holds instead of failing.
const flate: Decoder = (data, cap) =>
  zlibResult(cap, () => inflateSync(data, { maxOutputLength: cap + 1, finishFlush: constants.Z_SYNC_FLUSH }));

const brotli: Decoder = (data, cap) => zlibResult(cap, () => brotliDecompressSync(data, { maxOutputLength: cap + 1 }));

/** Grows an output buffer up to `cap` + 1 bytes; `push` returns false once past the cap. */
function sink(cap: number) {
  let out = new Uint8Array(Math.min(cap + 1, 1024));
  let length = 0;
  return {
    push(byte: number): boolean {
      if (length > cap) return false;
      if (length === out.length) {
        const grown = new Uint8Array(Math.min(cap + 1, out.length * 2));
        grown.set(out);
        out = grown;
      }
      out[length++] = byte;
      return length <= cap;
    },
    result: (): FilterResult => (length > cap ? 'too_large' : out.subarray(0, length)),
  };
}

const isPdfSpace = (c: number): boolean => c === 0 || c === 9 || c === 10 || c === 12 || c === 13 || c === 32;

const asciiHex: Decoder = (data, cap) => {
  const out = sink(cap);
  let high = -1;
  for (const c of data) {
    if (c === 0x3e) break; // '>' ends the data
    if (isPdfSpace(c)) continue;
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1;
    if (digit < 0) return 'undecodable';
    if (high < 0) high = digit;
    else if (!out.push((high << 4) | digit)) return 'too_large';
    else high = -1;
  }
  if (high >= 0) out.push(high << 4);
  return out.result();
};

const ascii85: Decoder = (data, cap) => {
  const out = sink(cap);
  const group: number[] = [];
  const flush = (n: number): boolean => {
    let value = 0;
    // A short last group is padded with 'u' (84).
    for (let i = 0; i < 5; i += 1) value = value * 85 + (group[i] ?? 84);
    for (let i = 0; i < n - 1; i += 1) if (!out.push((value >>> (24 - 8 * i)) & 0xff)) return false;
    group.length = 0;
    return true;
  };
  for (const c of data) {
    if (c === 0x7e) break; // '~>' ends the data
    if (isPdfSpace(c)) continue;
    if (c === 0x7a && group.length === 0) {
      for (let i = 0; i < 4; i += 1) if (!out.push(0)) return 'too_large';
      continue;
    }
    if (c < 0x21 || c > 0x75) return 'undecodable';
    group.push(c - 0x21);
    if (group.length === 5 && !flush(5)) return 'too_large';
  }
  if (group.length > 1 && !flush(group.length)) return 'too_large';
  return out.result();
};

const runLength: Decoder = (data, cap) => {
  const out = sink(cap);
  let i = 0;
  // n: a length byte; undefined past the end of the data, 128 marks the end.
  for (let n = data[i++]; n !== undefined && n !== 128; n = data[i++]) {
    if (n < 128) {
      // The next n + 1 bytes (fewer when the data ends first) are copied.
      const literal = data.subarray(i, i + n + 1);
      i += literal.length;
      for (const byte of literal) if (!out.push(byte)) return 'too_large';
    } else {
      const byte = data[i++] ?? 0;
      for (let k = 0; k < 257 - n; k += 1) if (!out.push(byte)) return 'too_large';
    }
  }
  return out.result();
};

/**
 * LZW as PDF uses it: MSB-first codes of 9 to 12 bits, 256 clears, 257 ends, EarlyChange 1.
 * Every entry a code can name has a first byte (the empty 256 and 257 are never entries).
 */
const LZW_ENTRY = "an LZW entry's first byte";

const lzw: Decoder = (data, cap) => {
  const out = sink(cap);
  const table: Uint8Array[] = [];
  const reset = (): void => {
    table.length = 0;
    for (let i = 0; i < 256; i += 1) table.push(Uint8Array.of(i));
    table.push(new Uint8Array(0), new Uint8Array(0));
  };
  reset();
  let width = 9;
  let previous: Uint8Array | null = null;
  let buffer = 0;
  let bits = 0;
  let i = 0;
  for (;;) {
    // Bytes until a code's bits are in; the loop ends when the data cannot complete one.
    for (let byte = data[i]; bits < width && byte !== undefined; byte = data[i]) {
      buffer = ((buffer << 8) | byte) >>> 0;
      bits += 8;
      i += 1;
    }
    if (bits < width) break;
    const code = (buffer >>> (bits - width)) & ((1 << width) - 1);
    bits -= width;
    buffer &= (1 << bits) - 1;
    if (code === 256) {
      reset();
      width = 9;
      previous = null;
      continue;
    }
    if (code === 257) break;
    let entry = table[code];
    if (entry === undefined) {
      if (previous === null || code !== table.length) return 'undecodable';
      entry = Uint8Array.of(...previous, must(previous[0], LZW_ENTRY));
    }
    for (const byte of entry) if (!out.push(byte)) return 'too_large';
    if (previous !== null && table.length < 4096) table.push(Uint8Array.of(...previous, must(entry[0], LZW_ENTRY)));
    previous = entry;
    if (table.length + 1 >= 1 << width && width < 12) width += 1;
  }
  return out.result();
};

const DECODERS = new Map<string, Decoder>([
  ['FlateDecode', flate],
  ['Fl', flate],
  ['BrotliDecode', brotli],
  ['LZWDecode', lzw],
  ['LZW', lzw],
  ['RunLengthDecode', runLength],
  ['RL', runLength],
  ['ASCIIHexDecode', asciiHex],
  ['AHx', asciiHex],
  ['ASCII85Decode', ascii85],
  ['A85', ascii85],
]);

/** Filters whose output can be far larger than their input: a stream using one is sized. */
export const EXPANDING = new Set(['FlateDecode', 'Fl', 'BrotliDecode', 'LZWDecode', 'LZW', 'RunLengthDecode', 'RL']);

/** One filter's output, `too_large` past `cap`, `undecodable` for bad data or a filter not listed. */
export function decodeFilter(name: string, data: Uint8Array, cap: number): FilterResult {
  return DECODERS.get(name)?.(data, cap) ?? 'undecodable';
}

const lzwEnd = Uint8Array.of(0x80, 0x40, 0x40); // codes 256 (clear) and 257 (end), 9 bits each

/** Data that the first filter decodes to nothing (later filters then get nothing too). */
export const EMPTY_DATA = new Map<string, Uint8Array>([
  ['FlateDecode', deflateSync(Buffer.alloc(0))],
  ['Fl', deflateSync(Buffer.alloc(0))],
  ['BrotliDecode', brotliCompressSync(Buffer.alloc(0))],
  ['LZWDecode', lzwEnd],
  ['LZW', lzwEnd],
  ['RunLengthDecode', Uint8Array.of(128)],
  ['RL', Uint8Array.of(128)],
  ['ASCIIHexDecode', Uint8Array.of(0x3e)],
  ['AHx', Uint8Array.of(0x3e)],
  ['ASCII85Decode', Uint8Array.of(0x7e, 0x3e)],
  ['A85', Uint8Array.of(0x7e, 0x3e)],
]);
