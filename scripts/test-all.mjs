#!/usr/bin/env node
// `npm test`: lint, dependency rules, typecheck, reference page, unit and e2e tests, then one plain
// summary line ("N passed, N failed") that CI can read, so a run that executed no test is visible.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

// The PostgreSQL store tests (DUR-04) need a server: YUKTA_TEST_PG_URL, or Debian's binaries for a throwaway
// one (engine/test-support/postgres-cluster.ts, whose message this is). Never skipped: without either, stop now.
const POSTGRES_MISSING =
  'PostgreSQL is needed by the DUR-04 tests: install the Debian package "postgresql" (apt-get install -y postgresql) or set YUKTA_TEST_PG_URL=postgres://user@host:port/database';
const debianServer = () =>
  existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').some((v) => existsSync(join('/usr/lib/postgresql', v, 'bin', 'initdb')));
if (!process.env.YUKTA_TEST_PG_URL && !(process.env.YUKTA_PG_BIN && existsSync(join(process.env.YUKTA_PG_BIN, 'initdb'))) && !debianServer()) {
  console.log(`npm test: ${POSTGRES_MISSING}`);
  process.exit(1);
}

const REPORTS = '.test-reports';
rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });

const steps = [
  ['format (prettier --check; npm run format rewrites)', 'npx', ['prettier', '--check', '.']],
  ['lint', 'npx', ['eslint', '.']],
  ['dependency rules', 'npm', ['run', '--silent', 'deps:check']],
  ['tests beside their files', 'npm', ['run', '--silent', 'tests:placement']],
  ['electron security (electronegativity)', 'npm', ['run', '--silent', 'lint:electron']],
  ['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['reference page', 'npm', ['run', '--silent', 'test:reference']],
  ['unit tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${REPORTS}/unit.json`]],
  ['e2e tests', 'npm', ['run', '--silent', 'test:e2e']],
];

const failedSteps = [];
const timings = [];
for (const [name, cmd, args] of steps) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  timings.push(`${name} ${seconds}s`);
  if (result.status !== 0) failedSteps.push(name);
}

const unit = readJson(join(REPORTS, 'unit.json'));
const e2e = readJson(join(REPORTS, 'e2e.json'));
const unitPassed = unit?.numPassedTests ?? 0;
const unitFailed = (unit?.numFailedTests ?? 0) + (unit && !unit.success && !unit.numFailedTests ? 1 : 0);
const e2ePassed = (e2e?.stats?.expected ?? 0) + (e2e?.stats?.flaky ?? 0);
const e2eFailed = e2e?.stats?.unexpected ?? 0;
const e2eSkipped = e2e?.stats?.skipped ?? 0;

console.log('\n=== summary');
console.log(`steps: ${timings.join(', ')}`);
console.log(`unit: ${unitPassed} passed, ${unitFailed} failed${unit ? '' : ' (no report)'}`);
console.log(`e2e: ${e2ePassed} passed, ${e2eFailed} failed, ${e2eSkipped} skipped${e2e ? '' : ' (no report)'}`);
if (failedSteps.length) console.log(`failed steps: ${failedSteps.join(', ')}`);
const failed = unitFailed + e2eFailed + (failedSteps.length && unitFailed + e2eFailed === 0 ? failedSteps.length : 0);
console.log(`${unitPassed + e2ePassed} passed, ${failed} failed`);
process.exit(failedSteps.length ? 1 : 0);

function readJson(path) {
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}
