import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'yukta-eng-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function lint(allow: unknown): Promise<{ code: number; stdout: string }> {
  const file = join(dir, `allow-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(allow));
  return run(process.execPath, ['scripts/electronegativity.mjs', '--allow', file], { cwd: ROOT }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
}

describe('SEC-03 electronegativity gate (npm run lint:electron)', () => {
  it('fails on every finding that the allow-list does not justify, naming it', async () => {
    const { code, stdout } = await lint({ allow: [] });
    expect(code).toBe(1);
    for (const id of ['CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK', 'OPEN_EXTERNAL_JS_CHECK']) expect(stdout).toContain(`UNEXPLAINED ${id}`);
    expect(stdout).toMatch(/0 justified .* 0 unparsed files/);
  });

  it('refuses an allow-list entry without a reason', async () => {
    const { code } = await lint({ allow: [{ id: 'SANDBOX_JS_CHECK', file: 'main/electron/main.ts', reason: 'ok' }] });
    expect(code).toBe(2);
  });
});
