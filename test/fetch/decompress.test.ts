import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.ts';
import { parseContentEncoding, readBody } from '../../src/fetch/decompress.ts';
import { createByteBudget } from '../../src/fetch/byte-budget.ts';

const BIG = { maxWireBytes: 10 * 1024 * 1024, maxDecodedBytes: 20 * 1024 * 1024 };
const text = Buffer.from('The quick brown fox jumps over the lazy dog. '.repeat(2000));

/** A body source handing out `data` in `size`-byte pieces, counting what was taken. */
function source(data: Uint8Array, size = 1024) {
  const stats = { taken: 0 };
  async function* pieces() {
    for (let i = 0; i < data.length; i += size) {
      const piece = data.subarray(i, i + size);
      stats.taken += piece.length;
      yield piece;
    }
  }
  return { stream: Readable.from(pieces(), { objectMode: false }), stats };
}

const decode = (data: Uint8Array, header: string, limits = BIG) =>
  readBody(source(data).stream, parseContentEncoding(header), limits);

describe('parseContentEncoding', () => {
  it('lists codings in the order applied', () => {
    expect(parseContentEncoding(undefined)).toEqual([]);
    expect(parseContentEncoding('identity')).toEqual([]);
    expect(parseContentEncoding('GZIP')).toEqual(['gzip']);
    expect(parseContentEncoding('x-gzip')).toEqual(['gzip']);
    expect(parseContentEncoding('gzip, br')).toEqual(['gzip', 'br']);
    expect(parseContentEncoding(['deflate', 'br'])).toEqual(['deflate', 'br']);
  });

  it('refuses more than two codings and unknown ones with 502', () => {
    expect(() => parseContentEncoding('gzip, br, deflate')).toThrow(/at most 2/);
    expect(() => parseContentEncoding('zstd')).toThrow(DomainError);
    expect(() => parseContentEncoding('compress')).toThrow(/not supported/);
  });
});

describe('readBody', () => {
  it.each([
    ['gzip', zlib.gzipSync(text)],
    ['br', zlib.brotliCompressSync(text)],
    ['deflate', zlib.deflateSync(text)],
    ['deflate', zlib.deflateRawSync(text)], // raw deflate, as some servers send it
    ['gzip, br', zlib.brotliCompressSync(zlib.gzipSync(text))],
    ['deflate, gzip', zlib.gzipSync(zlib.deflateSync(text))],
  ])('decodes %s', async (header, body) => {
    const read = await decode(body, header);
    expect(Buffer.from(read.body).equals(text)).toBe(true);
    expect(read.truncated).toBe(false);
  });

  it('passes an unencoded body through', async () => {
    const read = await decode(text, '');
    expect(Buffer.from(read.body).equals(text)).toBe(true);
  });

  it('cuts at the wire cap, keeps the prefix and closes the source', async () => {
    const { stream, stats } = source(text, 1000);
    const read = await readBody(stream, [], { maxWireBytes: 4500, maxDecodedBytes: BIG.maxDecodedBytes });
    expect(read.body.length).toBe(4500);
    expect(Buffer.from(read.body).equals(text.subarray(0, 4500))).toBe(true);
    expect(read.truncated).toBe(true);
    expect(stats.taken).toBeLessThan(text.length / 2); // some read-ahead, never the whole body
    expect(stream.destroyed).toBe(true);
  });

  it('decodes the part of a compressed body that fits under the wire cap', async () => {
    const gz = zlib.gzipSync(Buffer.from(Array.from({ length: 20000 }, (_, i) => `line ${i}\n`).join('')));
    const read = await readBody(source(gz).stream, ['gzip'], {
      maxWireBytes: Math.floor(gz.length / 2),
      maxDecodedBytes: BIG.maxDecodedBytes,
    });
    const got = Buffer.from(read.body).toString();
    expect(read.truncated).toBe(true);
    expect(got.startsWith('line 0\nline 1\n')).toBe(true);
    expect(got.length).toBeGreaterThan(1000);
  });

  it('stops a gzip bomb at the decoded cap without reading the rest of it', async () => {
    // 64 MB of zeros, compressed to ~64 KB.
    const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    const { stream, stats } = source(bomb, 1024);
    const read = await readBody(stream, ['gzip'], { maxWireBytes: BIG.maxWireBytes, maxDecodedBytes: 1024 * 1024 });
    expect(read.body.length).toBe(1024 * 1024);
    expect(read.truncated).toBe(true);
    // 1 MB of output needs about 1 KB of input (plus stream read-ahead): decoding stopped long before the end.
    expect(stats.taken).toBeLessThan(bomb.length / 2);
    expect(stream.destroyed).toBe(true);
  });

  it('stops a stacked (gzip inside brotli) bomb too', async () => {
    const bomb = zlib.brotliCompressSync(zlib.gzipSync(Buffer.alloc(32 * 1024 * 1024), { level: 9 }));
    const read = await readBody(source(bomb).stream, ['gzip', 'br'], {
      maxWireBytes: BIG.maxWireBytes,
      maxDecodedBytes: 512 * 1024,
    });
    expect(read.body.length).toBe(512 * 1024);
  });

  it('answers 502 for a corrupt body', async () => {
    const e = await decode(Buffer.from('this is not gzip at all'), 'gzip').catch((err: unknown) => err);
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).kind).toBe('upstream');
    expect((e as DomainError).message).toBe('origin sent a corrupt gzip body');
  });

  it('returns an empty body for an empty encoded response', async () => {
    expect((await decode(new Uint8Array(0), 'gzip')).body.length).toBe(0);
  });

  it('takes every decoded byte kept from the byte account and cuts the body where it grants no more', async () => {
    const budget = createByteBudget(300 * 1024, 300 * 1024);
    const account = budget.open();
    // 64 MB of zeros, compressed to ~64 KB: under both caps, only the account stops it.
    const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    const { stream, stats } = source(bomb);
    const read = await readBody(
      stream,
      ['gzip'],
      { maxWireBytes: BIG.maxWireBytes, maxDecodedBytes: 64 * 1024 * 1024 },
      account,
    );
    expect(read.body.length).toBe(300 * 1024);
    expect(read.truncated).toBe(true);
    expect(account.held).toBe(300 * 1024);
    expect(stats.taken).toBeLessThan(bomb.length / 2); // the rest was never read
    expect(stream.destroyed).toBe(true);
    account.close();
    expect(budget.used).toBe(0);
  });

  it("a body under the account's grant is whole and not truncated", async () => {
    const budget = createByteBudget(1024 * 1024, 1024 * 1024);
    const account = budget.open();
    const read = await readBody(source(text).stream, [], BIG, account);
    expect(read.body.length).toBe(text.length);
    expect(read.truncated).toBe(false);
    expect(budget.used).toBe(text.length);
    account.close();
  });
});
