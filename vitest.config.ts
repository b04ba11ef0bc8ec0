import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Suites run `node bin/scout.mjs`, which runs dist/: rebuilt first when src/ is newer.
    globalSetup: ['test/helpers/global-build.ts'],
    // Tests never leave the machine: without this, a Scout a test starts (in process or as a
    // child inheriting the environment) would search the default keyless web engines. Tests
    // of the default set it apart (test/providers/default-providers.test.ts).
    env: { SCOUT_SEARCH_PROVIDERS: 'local' },
    // A limit for a hung test, not a check of speed (issue 24): a test that starts Scout
    // processes or builds an index takes up to ~8 s on a quiet 2-core machine and three to
    // four times that with both cores busy; speed is measured in bench/.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores: forks keep native better-sqlite3 handles isolated per file.
    pool: 'forks',
    // At least two files at once (vitest's default is one fewer than the CPUs: one on a 2-core
    // machine). Many files mostly wait (on servers they start, timers, child processes), so a
    // second one uses the time: 14 of them took 208 s instead of 259 s (issue 24).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // CI (.ci/run sets CI=true) also writes a JSON report, read by .ci/summary.mjs for the
    // closing "N passed, N failed" line; the command stays exactly `npm test`.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: '.ci-results.json' },
  },
});
