/**
 * Test support for the start script and the doctor: a checkout in a temporary folder with the packages they
 * read — Electron's (its real installer, package.json and checksums, without the binary), better-sqlite3's
 * package.json and Node's build of it — so every case runs without touching the real node_modules.
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SQLITE_ADDON } from '../../main/electron/native-abi';
export { closedPort } from '../../main/test-support/closed-port';
import { desktopPaths, type DesktopPaths } from './first-start';
import { platformExecutable } from './electron-package';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const REAL_MODULES = join(REPO, 'node_modules');
export const ELECTRON_VERSION = (JSON.parse(readFileSync(join(REAL_MODULES, 'electron', 'package.json'), 'utf8')) as { version: string }).version;
export const SQLITE_VERSION = (JSON.parse(readFileSync(join(REAL_MODULES, 'better-sqlite3', 'package.json'), 'utf8')) as { version: string }).version;

function copy(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
}

/** A fake checkout; the Electron binary is absent until `installElectron`. */
export function fakeCheckout(): DesktopPaths & { cache: string } {
  const root = mkdtempSync(join(tmpdir(), 'yukta-checkout-'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'yukta-studio', productName: 'Yukta Studio' }));
  const paths = desktopPaths(root);
  for (const file of ['package.json', 'abi_version', 'checksums.json', 'install.js']) copy(join(REAL_MODULES, 'electron', file), join(paths.electronDir, file));
  copy(join(REAL_MODULES, 'better-sqlite3', 'package.json'), join(paths.sqliteDir, 'package.json'));
  copy(join(REAL_MODULES, 'better-sqlite3', SQLITE_ADDON), join(paths.sqliteDir, SQLITE_ADDON));
  // The real prebuild-install, run from where it is installed (its own dependencies beside it).
  return { ...paths, prebuildInstall: join(REAL_MODULES, 'prebuild-install', 'bin.js'), cache: join(root, 'electron-cache') };
}

/** What install.js leaves behind after a successful download: path.txt, dist/version and the executable. */
export function installElectron(paths: DesktopPaths, platform: string = process.platform): string {
  const executable = join(paths.electronDir, 'dist', platformExecutable(platform));
  mkdirSync(dirname(executable), { recursive: true });
  writeFileSync(executable, '#!/bin/sh\nexit 0\n');
  chmodSync(executable, 0o755);
  writeFileSync(join(paths.electronDir, 'dist', 'version'), ELECTRON_VERSION);
  writeFileSync(join(paths.electronDir, 'path.txt'), platformExecutable(platform));
  return executable;
}

/** Node's build of better-sqlite3 with its registration symbol renamed to another ABI (same length). */
export function addonForAbi(abi: number): Buffer {
  const bytes = readFileSync(join(REAL_MODULES, 'better-sqlite3', SQLITE_ADDON));
  const text = bytes.toString('latin1').replaceAll(`node_register_module_v${process.versions.modules}`, `node_register_module_v${abi}`);
  return Buffer.from(text, 'latin1');
}

/** A script standing in for an installer: records that it ran, then runs `body` (JavaScript). */
export function fakeScript(path: string, body: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `require('node:fs').writeFileSync(${JSON.stringify(`${path}.ran`)}, 'ran');\n${body}\n`);
  return path;
}
