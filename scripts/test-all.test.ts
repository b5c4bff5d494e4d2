import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { POSTGRES_MISSING } from '../engine/test-support/postgres-cluster';

const ROOT = resolve(import.meta.dirname, '..');

describe('DUR-04 npm test needs a PostgreSQL server', () => {
  it('stops at once with one line naming what to install when neither a server URL nor the binaries are there (never skips)', () => {
    // The script's own preflight, run in a child with no YUKTA_TEST_PG_URL and the Debian folder it looks in
    // renamed (this machine has the binaries): it must print the one line and exit before any step.
    const script = readFileSync(join(ROOT, 'scripts', 'test-all.mjs'), 'utf8');
    expect(script).toContain(POSTGRES_MISSING);
    const probe = `${script.slice(0, script.indexOf('const REPORTS'))}console.log('went on');`.replace(
      "existsSync('/usr/lib/postgresql')",
      "existsSync('/nonexistent-postgresql')",
    );
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe(`npm test: ${POSTGRES_MISSING}\n`);
  });
});
