import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Suites run `node bin/scout.mjs`, which runs dist/: rebuilt first when src/ is newer.
    globalSetup: ['test/helpers/global-build.ts'],
    // A limit for a hung test, not a check of speed (issue 24): a test that starts Scout
    // processes or builds an index takes up to ~8 s on a quiet 2-core machine and three to
    // four times that with both cores busy; speed is measured in bench/.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores: forks keep native better-sqlite3 handles isolated per file.
    pool: 'forks',
    // CI (.ci/run sets CI=true) also writes a JSON report, read by .ci/summary.mjs for the
    // closing "N passed, N failed" line; the command stays exactly `npm test`.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: '.ci-results.json' },
  },
});
