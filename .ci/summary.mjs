// Prints the plain "N passed, N failed" closing line from vitest's JSON report, and fails
// when a test failed, when no test ran, or when the PostgreSQL, Redis, replica or package
// install suites did not run (they skip themselves without SCOUT_TEST_DATABASE_URL,
// SCOUT_TEST_REDIS_URL or SCOUT_TEST_PACK_INSTALL), or the dashboard's browser suite (it
// skips itself without /usr/bin/chromium).
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const passed = report.numPassedTests;
const failed = report.numFailedTests;
const skipped = report.numPendingTests + (report.numTodoTests ?? 0);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);

/** Tests that passed in files whose path contains `part`. */
const passedIn = (part) =>
  report.testResults
    .filter((file) => file.name.replaceAll('\\', '/').includes(part))
    .reduce((n, file) => n + file.assertionResults.filter((t) => t.status === 'passed').length, 0);
const required = {
  PostgreSQL: '/test/store/postgres/',
  Redis: '/test/store/redis/',
  Replicas: '/test/store/replicas.test.ts',
  'Replica crawl jobs': '/test/store/replicas-crawl-jobs.test.ts',
  'Package install': '/test/package/pack-install.test.ts',
  // Skipped (one line said) where /usr/bin/chromium is missing; .ci/run installs it.
  Browser: '/test/admin/dashboard.browser.test.ts',
};
let missing = false;
for (const [suite, part] of Object.entries(required)) {
  const n = passedIn(part);
  console.log(`${suite} suite: ${n} passed`);
  if (n === 0) missing = true;
}
if (missing)
  console.log(
    'a required suite did not run: are SCOUT_TEST_DATABASE_URL, SCOUT_TEST_REDIS_URL and SCOUT_TEST_PACK_INSTALL set, the services up, and /usr/bin/chromium installed?',
  );
if (failed > 0 || passed === 0 || missing) process.exit(1);
