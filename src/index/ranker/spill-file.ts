import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where sealed posting blocks go when the ranker's memory budget is spent: one append-only
 * file in a private temporary directory, read back a block at a time with positional reads
 * (the OS page cache keeps the hot ones in RAM without counting against the budget). It is
 * a cache of the index file's text, rebuilt with the ranker, so it is deleted on close and
 * never outlives the process that wrote it.
 */
export class SpillFile {
  readonly #dir: string;
  readonly #fd: number;
  #size = 0;

  constructor(parent = tmpdir()) {
    this.#dir = mkdtempSync(join(parent, 'scout-ranker-'));
    this.#fd = openSync(join(this.#dir, 'postings.bin'), 'w+', 0o600);
  }

  /** Bytes written so far. */
  get size(): number {
    return this.#size;
  }

  /** Appends bytes[from, to); returns their offset in the file. */
  append(bytes: Uint8Array, from: number, to: number): number {
    const at = this.#size;
    let done = 0;
    while (done < to - from) done += writeSync(this.#fd, bytes, from + done, to - from - done, at + done);
    this.#size += to - from;
    return at;
  }

  /** Reads `length` bytes at `offset` into `into` (from 0). */
  read(offset: number, length: number, into: Uint8Array): void {
    let done = 0;
    while (done < length) {
      const n = readSync(this.#fd, into, done, length - done, offset + done);
      if (n === 0) throw new Error(`ranker spill file ends at ${offset + done}, ${length - done} bytes short`);
      done += n;
    }
  }

  close(): void {
    closeSync(this.#fd);
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
