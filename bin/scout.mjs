#!/usr/bin/env node
// Entry of `npx scout`: registers tsx so the TypeScript sources run as they are.
import { register } from 'tsx/esm/api';

/** How long a closed `scout serve` waits for stdout to take its last log lines. */
const SERVE_DRAIN_MS = 2000;

register();
const { runCli } = await import('../src/cli/main.ts');
const argv = process.argv.slice(2);
const code = await runCli(argv, {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
process.exitCode = code;
// A closed server has nothing left to do, but log lines a stalled stdout reader never takes
// stay queued in libuv and keep the process alive for good. They get a moment, then the
// process ends anyway (unref: a process that drains sooner ends sooner). Only for serve:
// other commands' output is the result itself (`scout fetch … | less`) and must not be cut.
if (argv[0] === 'serve') setTimeout(() => process.exit(), SERVE_DRAIN_MS).unref();
