import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** Runs our dependency-cruiser config over a scratch tree holding the given files. */
async function cruise(files: Record<string, string>): Promise<Violation[]> {
  const dir = await mkdtemp(join(tmpdir(), 'yukta-deps-'));
  await copyFile(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true } }));
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  const bin = join(ROOT, 'node_modules', '.bin', 'depcruise');
  const roots = [...new Set(Object.keys(files).map((p) => p.split('/')[0]!))];
  const out = await run(bin, ['--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...roots], { cwd: dir }).catch((e: { stdout: string }) => e);
  const result = JSON.parse(out.stdout) as { summary: { violations: Violation[] } };
  return result.summary.violations;
}

describe('Architecture import rules (dependency-cruiser)', () => {
  it('rejects engine → electron and renderer → engine', async () => {
    const violations = await cruise({
      'engine/index.ts': 'export const x = 1;\n',
      'engine/bad.ts': "import { app } from 'electron';\nexport const y = app;\n",
      'renderer/bad.ts': "import { x } from '../engine/index';\nexport const z = x;\n",
    });
    const found = violations.map((v) => `${v.rule.name}: ${v.from}`);
    expect(found).toContain('engine-has-no-ui-or-transport: engine/bad.ts');
    expect(found).toContain('renderer-imports-shared-only: renderer/bad.ts');
    expect(found).toContain('electron-only-in-glue: engine/bad.ts');
  }, 60_000);

  it('rejects main → engine internals and shared → anything but zod', async () => {
    const violations = await cruise({
      'engine/index.ts': 'export const x = 1;\n',
      'engine/runtime/inner.ts': 'export const inner = 1;\n',
      'main/host/bad.ts': "import { inner } from '../../engine/runtime/inner';\nimport { x } from '../../engine/index';\nexport const z = inner + x;\n",
      'shared/bad.ts': "import { readFileSync } from 'node:fs';\nimport { z } from 'zod';\nexport const s = [readFileSync, z];\n",
    });
    const found = violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(found).toContain('main-uses-engine-entry-only: main/host/bad.ts → engine/runtime/inner.ts');
    expect(
      found.some((f) => f.startsWith('shared-imports-zod-only: shared/bad.ts → node:fs') || f.startsWith('shared-imports-zod-only: shared/bad.ts → fs')),
    ).toBe(true);
    // The allowed imports are not reported.
    expect(violations.filter((v) => v.to === 'engine/index.ts' || /node_modules\/zod\//.test(v.to))).toEqual([]);
  }, 60_000);

  it("lets main/'s tests use the engine's test support, and nothing else inside the engine", async () => {
    const violations = await cruise({
      'engine/index.ts': 'export const x = 1;\n',
      'engine/runtime/inner.ts': 'export const inner = 1;\n',
      'engine/test-support/server.ts': 'export const server = 1;\n',
      'main/host/host-test-support.ts': "import { server } from '../../engine/test-support/server';\nexport const s = server;\n",
      'main/host/a.test.ts': "import { inner } from '../../engine/runtime/inner';\nexport const i = inner;\n",
      'main/host/prod.ts': "import { server } from '../../engine/test-support/server';\nexport const p = server;\n",
    });
    const found = violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    expect(found).toEqual([
      'main-tests-use-engine-entry-or-test-support: main/host/a.test.ts → engine/runtime/inner.ts',
      'main-uses-engine-entry-only: main/host/prod.ts → engine/test-support/server.ts',
    ]);
  }, 60_000);

  it('accepts the project as it is', async () => {
    const out = await run(
      join(ROOT, 'node_modules', '.bin', 'depcruise'),
      ['--config', '.dependency-cruiser.cjs', '--output-type', 'json', 'shared', 'engine', 'main', 'renderer'],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
    );
    expect((JSON.parse(out.stdout) as { summary: { violations: Violation[] } }).summary.violations).toEqual([]);
  }, 60_000);
});
