import { Writable } from 'node:stream';

export interface ReservedStdout {
  /** Where protocol messages go: the real stdout. */
  protocol: Writable;
  /** Gives stdout its own write back. */
  release(): void;
}

/**
 * Keeps stdout for protocol messages alone (`scout mcp`): one stray line there (a library's
 * console.log, a PDF warning printed in an extraction worker, whose output Node writes to
 * the parent's stdout) would break the client's JSON-RPC stream. Every other write to
 * `stdout` goes to `stderr` instead; the protocol writes through the stream's own write.
 */
export function reserveStdout(stdout: Writable, stderr: Writable): ReservedStdout {
  const own = stdout.write;
  const write = own.bind(stdout) as (
    chunk: unknown,
    encoding?: BufferEncoding,
    cb?: (err?: Error | null) => void,
  ) => boolean;
  stdout.write = ((chunk: unknown, encoding?: unknown, cb?: unknown) =>
    (stderr.write as (...args: unknown[]) => boolean)(chunk, encoding, cb)) as typeof stdout.write;
  const protocol = new Writable({
    write(chunk: Buffer, _encoding, done) {
      // Backpressure is the real stdout's: the callback waits for its flush.
      write(chunk, undefined, (err) => done(err ?? null));
    },
  });
  return {
    protocol,
    release() {
      stdout.write = own;
    },
  };
}
