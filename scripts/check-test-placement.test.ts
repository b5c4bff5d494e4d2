import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Runs the check on a tree of the given (empty) files. */
async function check(files: string[]): Promise<{ code: number; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'yukta-placement-'));
  dirs.push(dir);
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), '');
  }
  return run(process.execPath, ['scripts/check-test-placement.mjs', '--root', dir], { cwd: ROOT }).then(
    ({ stdout }) => ({ code: 0, out: stdout }),
    (error: { code: number; stderr: string }) => ({ code: error.code, out: error.stderr }),
  );
}

describe('tests sit beside the file they are named after', () => {
  it('fails naming the test and its source when the source is elsewhere', async () => {
    const { code, out } = await check(['shared/workers/worker-protocol.ts', 'engine/workers/worker-protocol.test.ts']);
    expect(code).toBe(1);
    expect(out).toContain('engine/workers/worker-protocol.test.ts is named after shared/workers/worker-protocol.ts');
  });

  it('passes a test beside its source (one of several of that name), and tests named after a behaviour or a benchmark', async () => {
    const { code } = await check([
      'main/host/api-keys.ts',
      'main/http/api-keys.ts',
      'main/http/api-keys.test.ts',
      'renderer/App.tsx',
      'renderer/App.test.tsx',
      'engine/DEF-02-cycles.test.ts',
      'bench/ha-failover.ts',
      'main/host/ha-failover.test.ts',
    ]);
    expect(code).toBe(0);
  });

  it('passes this repository', async () => {
    expect((await run(process.execPath, ['scripts/check-test-placement.mjs'], { cwd: ROOT })).stdout).toContain(
      'every test named after a source file sits beside it',
    );
  });
});
