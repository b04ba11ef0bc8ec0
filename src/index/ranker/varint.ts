/**
 * Variable-byte integers (7 bits a byte, low bits first, high bit set on every byte but the
 * last), the coding of the compact postings (posting-store.ts): a slot gap or a position gap
 * below 128 takes one byte. Values are non-negative and below 2^31.
 */

/** Bytes `v` takes. */
export const varintSize = (v: number): number =>
  v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;

/** Writes `v` at `at` (room checked by the caller); returns the next free place. */
export function putVarint(bytes: Uint8Array, at: number, v: number): number {
  while (v >= 0x80) {
    bytes[at++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  bytes[at++] = v;
  return at;
}

/**
 * A reader over one byte array: `next()` decodes the integer at `at` and moves past it.
 * Kept as a small object with a mutable place so hot loops make no allocation. Readers
 * stay inside the integers written (each knows how many it reads): a read's `?? 0` only
 * satisfies the type and is never taken (the innermost loop of every search: no check).
 */
export class VarintReader {
  bytes: Uint8Array = new Uint8Array(0);
  at = 0;

  reset(bytes: Uint8Array, at: number): void {
    this.bytes = bytes;
    this.at = at;
  }

  next(): number {
    const b = this.bytes;
    let x = b[this.at++] ?? 0;
    if (x < 0x80) return x;
    x &= 0x7f;
    let shift = 7;
    for (;;) {
      const y = b[this.at++] ?? 0;
      x |= (y & 0x7f) << shift;
      if (y < 0x80) return x >>> 0;
      shift += 7;
    }
  }
}
