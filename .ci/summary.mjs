// Prints the plain "N passed, N failed" closing line from vitest's JSON report, and fails
// when no test ran or when a suite that CI must run (the Redis/PostgreSQL backends) was skipped.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const passed = report.numPassedTests;
const failed = report.numFailedTests;
const skipped = report.numPendingTests + (report.numTodoTests ?? 0);
const required = ['[redis]', '[postgres]'];
const titles = report.testResults.flatMap((f) => f.assertionResults.map((a) => ({ name: a.fullName, status: a.status })));
let missing = [];
for (const tag of required) {
  const ran = titles.filter((t) => t.name.includes(tag));
  if (ran.length > 0 && ran.some((t) => t.status !== 'passed')) missing.push(`${tag} suites did not all pass`);
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
for (const m of missing) console.error(m);
if (failed > 0 || passed === 0 || missing.length > 0) process.exit(1);
