#!/usr/bin/env node
// Entry of `npx scout`: runs the compiled JavaScript in dist/ (npm run build; `npm ci` builds
// it through prepare). In a checkout, where src/ sits beside dist/, a dist/ older than the
// sources is rebuilt first (scripts/build.mjs), so an edited tree never runs old code; an
// installed package has no src/ and runs the dist/ it shipped with.
import { existsSync } from 'node:fs';

/** How long a closed `scout serve` waits for stdout to take its last log lines. */
const SERVE_DRAIN_MS = 2000;

const root = new URL('../', import.meta.url);
if (existsSync(new URL('src/', root)) && existsSync(new URL('scripts/build.mjs', root))) {
  const { ensureFreshDist } = await import('../scripts/build.mjs');
  try {
    ensureFreshDist();
  } catch (e) {
    process.stderr.write(`scout: could not build dist/ from src/: ${e instanceof Error ? e.message : e}\n`);
    process.exit(1);
  }
}
if (!existsSync(new URL('dist/cli/main.js', root))) {
  process.stderr.write('scout: dist/ is missing; build it with `npm run build` (`npm ci` does)\n');
  process.exit(1);
}
const { runCli } = await import('../dist/cli/main.js');
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
