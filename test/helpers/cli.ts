import { PassThrough, Readable } from 'node:stream';
import { runCli } from '../../src/cli/main.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a `scout` command in-process with captured streams. */
export async function runScout(argv: string[], env: Record<string, string>, stdin = ''): Promise<CliRun> {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c) => (stdout += c));
  err.on('data', (c) => (stderr += c));
  // The local index unless the test says otherwise: tests never reach the default web engines.
  const withLocal = { SCOUT_SEARCH_PROVIDERS: 'local', ...env };
  const code = await runCli(argv, { stdin: Readable.from([stdin]), stdout: out, stderr: err, env: withLocal });
  return { code, stdout, stderr };
}
