import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { compileFunction } from 'node:vm';
import type { FakeElectron } from './fake-electron';

/** Test helper: loads the built Electron main bundle (`<out>/electron.cjs`) in Node with a fake 'electron' module. */
export function loadElectronBundle(fake: FakeElectron, out: string): void {
  const file = join(out, 'electron.cjs');
  const realRequire = createRequire(file);
  const requireWithFake = (id: string): unknown => (id === 'electron' ? fake.module : realRequire(id));
  const module = { exports: {} };
  compileFunction(readFileSync(file, 'utf8'), ['exports', 'require', 'module', '__filename', '__dirname'])(module.exports, requireWithFake, module, file, out);
}
