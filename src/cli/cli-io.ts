import type { Readable, Writable } from 'node:stream';

/** What a CLI command gets: streams to talk through, so tests can run commands in-process. */
export interface CliIO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Environment to load Config from (the real binary passes its own environment). */
  env: Record<string, string | undefined>;
}

/** A command returns its exit code; it never calls process.exit itself. */
export type CliCommand = (argv: string[], io: CliIO) => Promise<number>;

export class UsageError extends Error {
  override name = 'UsageError';
}
