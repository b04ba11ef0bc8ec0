import { brotliCompressSync, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeFilter, EMPTY_DATA } from '../../src/extract/pdf-filters.ts';

const bytes = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const text = (out: unknown): string => (out instanceof Uint8Array ? Buffer.from(out).toString('latin1') : String(out));

describe('decodeFilter', () => {
  it('decodes each expanding filter and stops past the cap', () => {
    const hello = 'hello hello hello hello';
    expect(text(decodeFilter('FlateDecode', deflateSync(hello), 100))).toBe(hello);
    expect(decodeFilter('Fl', deflateSync(Buffer.alloc(1000)), 999)).toBe('too_large');
    expect(text(decodeFilter('BrotliDecode', brotliCompressSync(hello), 100))).toBe(hello);
    // RunLength: 2 literal bytes, then 'z' repeated 4 times, then end.
    expect(text(decodeFilter('RunLengthDecode', Uint8Array.of(1, 0x61, 0x62, 253, 0x7a, 128), 100))).toBe('abzzzz');
    expect(decodeFilter('RL', Uint8Array.of(129, 0x7a), 100)).toBe('too_large'); // 128 bytes
  });

  it('decodes LZW as PDF writes it (the example of the PDF specification)', () => {
    const lzw = Uint8Array.of(0x80, 0x0b, 0x60, 0x50, 0x22, 0x0c, 0x0c, 0x85, 0x01);
    expect(text(decodeFilter('LZWDecode', lzw, 100))).toBe('-----A---B');
    expect(decodeFilter('LZW', lzw, 5)).toBe('too_large');
  });

  it('decodes the ASCII filters', () => {
    expect(text(decodeFilter('ASCIIHexDecode', bytes('68 65 6C6c 6F 7>'), 100))).toBe('hellop');
    expect(text(decodeFilter('ASCII85Decode', bytes('87cURD]i,"Ebo80~>'), 100))).toBe('Hello World!');
    expect(text(decodeFilter('A85', bytes('z~>'), 100))).toBe('\0\0\0\0');
  });

  it('says undecodable for bad data and unknown filters', () => {
    expect(decodeFilter('FlateDecode', bytes('not zlib'), 100)).toBe('undecodable');
    expect(decodeFilter('DCTDecode', bytes('jpeg'), 100)).toBe('undecodable');
  });

  it('has, for each expanding or ASCII filter, data that decodes to nothing', () => {
    for (const [name, empty] of EMPTY_DATA) expect((decodeFilter(name, empty, 0) as Uint8Array).length, name).toBe(0);
  });
});
