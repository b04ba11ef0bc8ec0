import { spawnSync } from 'node:child_process';
import { ROOT } from './scout-process.ts';

/**
 * vitest globalSetup: many suites start `node bin/scout.mjs` or `npm start`, which run the
 * compiled dist/. Built here once, before any suite, when src/ changed since the last build
 * (scripts/build.mjs), so a run never tests old code and the servers it starts do not each
 * stop to build (bin/scout.mjs would, under the same lock).
 */
export default function buildDist(): void {
  const run = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0)
    throw new Error(`building dist/ failed (node scripts/build.mjs --if-stale: ${run.status ?? run.signal})`);
}
