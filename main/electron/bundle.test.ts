import { execFile } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { compileFunction } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../shared/api/contract';
import type { YuktaBridge } from '../preload/bridge-types';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Inside the repository, so the CLI bundle resolves its external packages from node_modules.
const OUT = join(ROOT, 'dist', `.bundle-test-${process.pid}`);

beforeAll(async () => {
  await run(process.execPath, ['scripts/build-main.mjs', '--outdir', OUT], { cwd: ROOT });
}, 60_000);

afterAll(() => rmSync(OUT, { recursive: true, force: true }));

/** Loads the preload bundle the way a sandboxed renderer does: `require` knows only 'electron'. */
function loadPreload(invoke: (channel: string, ...args: unknown[]) => Promise<unknown>) {
  const exposed: Record<string, unknown> = {};
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
    ipcRenderer: { invoke, on: () => undefined },
  };
  const requireInSandbox = (id: string): unknown => {
    if (id === 'electron') return electron;
    throw new Error(`a sandboxed preload cannot require "${id}"`);
  };
  const module = { exports: {} };
  compileFunction(readFileSync(join(OUT, 'preload.cjs'), 'utf8'), ['require', 'module', 'exports'])(requireInSandbox, module, module.exports);
  return exposed;
}

describe('SEC-03 main-process bundles (scripts/build-main.mjs)', () => {
  it('bundles a small preload that needs only electron and exposes only window.yukta', async () => {
    expect(statSync(join(OUT, 'preload.cjs')).size).toBeLessThan(20_000);
    const calls: string[] = [];
    const exposed = loadPreload(async (channel) => {
      calls.push(channel);
      return { ok: true, value: channel };
    });
    expect(Object.keys(exposed)).toEqual(['yukta']);
    const bridge = exposed.yukta as YuktaBridge;
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'subscribe']);
    expect(await bridge.invoke('nope', {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_OPERATION' } });
    expect(calls).toEqual([]);
    for (const name of OPERATION_NAMES) expect(await bridge.invoke(name, {})).toEqual({ ok: true, value: `yukta:op:${name}` });
  });

  it('keeps electron, native modules and the HTTP packages out of the Electron main bundle', () => {
    const code = readFileSync(join(OUT, 'electron.cjs'), 'utf8');
    const required = new Set([...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!));
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    const packages = [...required].filter((id) => !builtins.has(id));
    expect(packages.sort()).toEqual(['@fastify/static', 'electron', 'fastify']);
  });

  it('builds a CLI that runs', async () => {
    const { stdout } = await run(process.execPath, [join(OUT, 'cli.mjs'), 'validate', join(ROOT, 'main/cli/test-fixtures/hello.json')], { cwd: ROOT });
    expect(stdout).toBe('valid\n');
  });
});
