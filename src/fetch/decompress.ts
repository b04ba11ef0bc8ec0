import { Readable, pipeline, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { DomainError } from '../domain/errors.ts';
import type { ByteAccount } from './byte-budget.ts';

/**
 * Reads a response body under two byte caps: bytes taken off the wire, and bytes after
 * content decoding. Decoding is streamed and stopped at the cap, so a decompression bomb
 * never allocates more than the cap (plus one zlib chunk). What was read before a cap is
 * kept: the caller extracts from a prefix rather than failing.
 *
 * With a byte account (the process-wide ceiling, src/fetch/byte-budget.ts), every decoded
 * byte kept is taken from it as it arrives; when the account grants less, the body is cut
 * there exactly like at a cap. Only kept bytes are counted: compressed bytes pass through
 * one chunk at a time and are not buffered.
 */

export interface ByteLimits {
  maxWireBytes: number;
  maxDecodedBytes: number;
}

export interface BodyRead {
  body: Uint8Array;
  /** True when a cap cut the body short. */
  truncated: boolean;
}

export type ContentCoding = 'gzip' | 'br' | 'deflate';

const MAX_CODINGS = 2;

/** Content-Encoding header → codings in the order they were applied. Throws DomainError('upstream'). */
export function parseContentEncoding(header: string | string[] | undefined): ContentCoding[] {
  const raw = Array.isArray(header) ? header.join(',') : (header ?? '');
  const codings = raw
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
    .map((c): ContentCoding => {
      if (c === 'gzip' || c === 'x-gzip') return 'gzip';
      if (c === 'br' || c === 'deflate') return c;
      throw new DomainError(
        'upstream',
        `origin used content encoding "${c}", which is not supported (gzip, br, deflate are)`,
      );
    });
  if (codings.length > MAX_CODINGS) {
    throw new DomainError(
      'upstream',
      `origin stacked ${codings.length} content encodings; at most ${MAX_CODINGS} are decoded`,
    );
  }
  return codings;
}

// Lenient flush modes decode a stream that ends early (cut at the wire cap) without an error.
const lenientZlib = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
const lenientBrotli = { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };

/** "deflate" is meant to be zlib-wrapped (RFC 9110) but some servers send raw deflate: sniff the header. */
function isZlibHeader(b: Uint8Array): boolean {
  const cmf = b[0];
  const flg = b[1];
  return cmf !== undefined && flg !== undefined && (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
}

function decoderFor(coding: ContentCoding, first: Uint8Array): Transform {
  if (coding === 'gzip') return zlib.createGunzip(lenientZlib);
  if (coding === 'br') return zlib.createBrotliDecompress(lenientBrotli);
  return isZlibHeader(first) ? zlib.createInflate(lenientZlib) : zlib.createInflateRaw(lenientZlib);
}

/** Yields `source` cut at `max` bytes; sets `state.cut` when it had to cut. Returning closes the source. */
async function* capped(
  source: AsyncIterable<Uint8Array>,
  max: number,
  state: { cut: boolean },
): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const chunk of source) {
    if (seen + chunk.length >= max) {
      // Reaching the cap exactly counts as cut too: whatever follows is not read.
      state.cut = true;
      yield chunk.subarray(0, max - seen);
      return;
    }
    seen += chunk.length;
    yield chunk;
  }
}

/** Yields `source` while `account` grants its bytes; cut (and `state.cut`) where it grants less. */
async function* metered(
  source: AsyncIterable<Uint8Array>,
  account: ByteAccount,
  state: { cut: boolean },
): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    const granted = account.take(chunk.length);
    if (granted < chunk.length) {
      state.cut = true;
      if (granted > 0) yield chunk.subarray(0, granted);
      return;
    }
    yield chunk;
  }
}

/** One decoding step; the decoder is chosen after peeking the first chunk (for deflate). */
async function* decoded(source: AsyncIterable<Uint8Array>, coding: ContentCoding): AsyncGenerator<Uint8Array> {
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done === true) return;
  async function* replay(): AsyncGenerator<Uint8Array> {
    yield first.value;
    for (let r = await it.next(); r.done !== true; r = await it.next()) yield r.value;
  }
  const decoder = decoderFor(coding, first.value);
  // pipeline forwards errors into `decoder` (so the loop below throws) and, when the loop
  // stops early and destroys `decoder`, closes the upstream iterators down to the socket.
  pipeline(Readable.from(replay(), { objectMode: false }), decoder, () => {});
  try {
    for await (const chunk of decoder) yield chunk as Buffer;
  } finally {
    decoder.destroy();
    // Not awaited: a pending read of a trickling socket would hold it up; readBody destroys the source.
    it.return?.().catch(() => {});
  }
}

/**
 * Reads `source` (the raw response body) under the caps, undoing `codings` (as applied, in
 * order). Bytes kept are taken from `account` when given; the caller closes the account.
 */
export async function readBody(
  source: Readable,
  codings: readonly ContentCoding[],
  limits: ByteLimits,
  account?: ByteAccount,
): Promise<BodyRead> {
  const wire = { cut: false };
  let stream: AsyncIterable<Uint8Array> = capped(source, limits.maxWireBytes, wire);
  for (const coding of [...codings].reverse()) stream = decoded(stream, coding);
  const decodedCut = { cut: false };
  stream = capped(stream, limits.maxDecodedBytes, decodedCut);
  const ceilingCut = { cut: false };
  if (account !== undefined) stream = metered(stream, account, ceilingCut);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (err) {
    if (err instanceof DomainError) throw err;
    if (
      (err as NodeJS.ErrnoException).code?.startsWith('Z_') === true ||
      (err as NodeJS.ErrnoException).code?.startsWith('ERR_BROTLI') === true
    ) {
      throw new DomainError('upstream', `origin sent a corrupt ${codings.join('+')} body`, { cause: err });
    }
    throw err;
  } finally {
    // Stopping at a cap leaves the rest unread: close the socket rather than drain it.
    // undici's body emits an error when destroyed unread: listen, or it is an uncaught exception.
    if (!source.readableEnded) source.on('error', () => {}).destroy();
  }
  return { body: concat(chunks, size), truncated: wire.cut || decodedCut.cut || ceilingCut.cut };
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const [only] = chunks;
  return chunks.length === 1 && only !== undefined ? only : Buffer.concat(chunks, size);
}
