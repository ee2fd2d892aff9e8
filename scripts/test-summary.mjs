// Sums vitest's and Playwright's JSON reports, plus lint and typecheck (one test each), into the
// one line CI reads: "N passed, N failed".
import { existsSync, readFileSync } from 'node:fs';

const dir = process.argv[2] ?? '.test-results';
let passed = 0;
let failed = 0;

const unitFile = `${dir}/unit.json`;
if (existsSync(unitFile)) {
  const unit = JSON.parse(readFileSync(unitFile, 'utf8'));
  passed += unit.numPassedTests;
  failed += unit.numFailedTests + (unit.numPendingTests ?? 0) + (unit.numTodoTests ?? 0);
  // a test file that fails to load has no tests but must still count as a failure
  failed += unit.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
} else failed += 1;

const e2eFile = `${dir}/e2e.json`;
if (existsSync(e2eFile)) {
  const e2e = JSON.parse(readFileSync(e2eFile, 'utf8'));
  passed += e2e.stats.expected;
  failed += e2e.stats.unexpected + e2e.stats.flaky + e2e.stats.skipped;
  failed += (e2e.errors ?? []).length;
} else failed += 1;

// lint and typecheck: one test each, written by test-all.sh as "pass" or "fail"
for (const check of ['lint', 'typecheck']) {
  const file = `${dir}/${check}.status`;
  if (existsSync(file) && readFileSync(file, 'utf8').trim() === 'pass') passed += 1;
  else failed += 1;
}

// The PostgreSQL tests (the two-worker proof and the inspector's parity test) are skipped
// (= failed above) only when PostgreSQL could not be installed; the summary says so instead of hiding it.
const pgFile = `${dir}/postgres.status`;
// (printed just above the summary, which stays the last line and keeps its exact shape).
if (existsSync(pgFile))
  console.log(`PostgreSQL tests (two-worker proof, inspector parity) not run: ${readFileSync(pgFile, 'utf8').trim()}`);

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
