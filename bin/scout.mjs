#!/usr/bin/env node
// Entry of `npx scout`: registers tsx so the TypeScript sources run as they are.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
const code = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
process.exitCode = code;
