import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseSqliteBinding, electronSqliteDir, SQLITE_ADDON } from '../../main/electron/native-abi';
import { EXIT_FAILED, startDesktop, type Launcher } from '../desktop-start';
import { errorLine } from './fetch-child';
import { addonForAbi, closedPort, ELECTRON_VERSION, fakeCheckout, fakeScript, installElectron, REAL_MODULES, SQLITE_VERSION } from './fake-checkout';
import type { StartContext } from './first-start';

const PLATFORM = process.platform;
const ARCH = process.arch;

function context(paths: StartContext['paths'], env: Record<string, string | undefined>) {
  const output: string[] = [];
  const ctx: StartContext = { paths, env, platform: PLATFORM, arch: ARCH, node: process.execPath, write: (t) => void output.push(t), tty: false };
  return { ctx, text: () => output.join('') };
}

/** Records what would run after a successful preparation. */
function recordingLauncher() {
  const calls: string[] = [];
  const launcher: Launcher = { build: () => (calls.push('build'), true), run: async (exe) => (calls.push(`run ${exe}`), 0) };
  return { calls, launcher };
}

/** No environment of the machine leaks in (a CI variable, a mirror); only what the case sets. */
const baseEnv = (extra: Record<string, string>) => ({ PATH: process.env.PATH, HOME: process.env.HOME, ...extra });

describe('STU-08 npm start on a machine without the Electron binary', () => {
  it("runs Electron's real installer; offline it prints one message (what, from where, why, npm run serve), no stack trace, exit 1", async () => {
    const paths = fakeCheckout();
    const port = await closedPort();
    // NODE_PATH lets the copied install.js find @electron/get; the mirror refuses at once, on any machine.
    const { ctx, text } = context(
      paths,
      baseEnv({ NODE_PATH: REAL_MODULES, ELECTRON_MIRROR: `http://127.0.0.1:${port}/`, electron_config_cache: paths.cache }),
    );
    const { calls, launcher } = recordingLauncher();
    expect(await startDesktop(ctx, [], launcher)).toBe(EXIT_FAILED);
    const out = text();
    expect(out).toContain(`the Electron ${ELECTRON_VERSION} binary (${PLATFORM}-${ARCH}) could not be fetched`);
    expect(out).toContain(`from:   http://127.0.0.1:${port}/v${ELECTRON_VERSION}/electron-v${ELECTRON_VERSION}-${PLATFORM}-${ARCH}.zip`);
    expect(out).toMatch(/error: {2}.*ECONNREFUSED/);
    expect(out).toContain('npm run serve');
    expect(out).not.toMatch(/^\s+at /m);
    expect(calls).toEqual([]); // neither built nor launched
    expect(existsSync(join(paths.electronDir, 'path.txt'))).toBe(false);
  });

  it('honours ELECTRON_CUSTOM_DIR in the place it names', async () => {
    const paths = fakeCheckout();
    const port = await closedPort();
    const { ctx, text } = context(
      paths,
      baseEnv({
        NODE_PATH: REAL_MODULES,
        ELECTRON_MIRROR: `http://127.0.0.1:${port}/mirror/`,
        ELECTRON_CUSTOM_DIR: 'electron-{{ version }}',
        electron_config_cache: paths.cache,
      }),
    );
    expect(await startDesktop(ctx, [], recordingLauncher().launcher)).toBe(EXIT_FAILED);
    expect(text()).toContain(`from:   http://127.0.0.1:${port}/mirror/electron-${ELECTRON_VERSION}/electron-v${ELECTRON_VERSION}-${PLATFORM}-${ARCH}.zip`);
  });

  for (const [name, value] of [
    ['ELECTRON_SKIP_BINARY_DOWNLOAD', '1'],
    ['CI', 'true'],
  ] as const) {
    const env = { [name]: value };
    it(`with ${name}=${value} tries no network: the installer never runs, the message says why, exit 1`, async () => {
      const paths = fakeCheckout();
      const installer = fakeScript(join(paths.electronDir, 'install.js'), 'process.exit(0);');
      const { ctx, text } = context(paths, baseEnv(env));
      expect(await startDesktop(ctx, [], recordingLauncher().launcher)).toBe(EXIT_FAILED);
      expect(existsSync(`${installer}.ran`)).toBe(false);
      expect(text()).toContain(`is not installed, and ${name}=${value} says not to fetch it (nothing was downloaded)`);
      expect(text()).toContain('npm run serve');
    });
  }

  it("once the installer succeeds, fetches better-sqlite3 for Electron's ABI into .desktop-native, then builds and launches", async () => {
    const paths = fakeCheckout();
    // Stands in for install.js after a download (the real one needs the internet).
    fakeScript(
      join(paths.electronDir, 'install.js'),
      `
      const fs = require('node:fs'), path = require('node:path');
      const exe = path.join(__dirname, 'dist', ${JSON.stringify(PLATFORM === 'win32' ? 'electron.exe' : PLATFORM === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron')});
      fs.mkdirSync(path.dirname(exe), { recursive: true }); fs.writeFileSync(exe, '');
      fs.writeFileSync(path.join(__dirname, 'dist', 'version'), ${JSON.stringify(ELECTRON_VERSION)});
      fs.writeFileSync(path.join(__dirname, 'path.txt'), path.relative(path.join(__dirname, 'dist'), exe));`,
    );
    // Stands in for prebuild-install: unpacks a build for ABI 145 into build/Release of its folder.
    const addon = addonForAbi(145).toString('base64');
    paths.prebuildInstall = fakeScript(
      join(paths.root, 'fake-prebuild', 'bin.js'),
      `
      const fs = require('node:fs');
      if (!process.argv.includes('electron') || !process.argv.includes(${JSON.stringify(ELECTRON_VERSION)})) process.exit(3);
      fs.mkdirSync('build/Release', { recursive: true }); fs.writeFileSync('build/Release/better_sqlite3.node', Buffer.from('${addon}', 'base64'));`,
    );
    const { ctx } = context(paths, baseEnv({}));
    const { calls, launcher } = recordingLauncher();
    expect(await startDesktop(ctx, [], launcher)).toBe(0);
    const dir = electronSqliteDir(paths.root, SQLITE_VERSION, { abi: 145, platform: PLATFORM, arch: ARCH });
    expect(existsSync(join(dir, SQLITE_ADDON))).toBe(true);
    expect(existsSync(`${dir}.partial`)).toBe(false);
    expect(calls).toEqual([
      'build',
      `run ${join(paths.electronDir, 'dist', PLATFORM === 'win32' ? 'electron.exe' : PLATFORM === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron')}`,
    ]);
    // …and it is what the desktop main then loads, while Node's build in node_modules stays as it was.
    const choice = chooseSqliteBinding({
      abi: 145,
      platform: PLATFORM,
      arch: ARCH,
      packaged: false,
      appRoot: paths.root,
      sqliteVersion: SQLITE_VERSION,
      packageAddon: join(paths.sqliteDir, SQLITE_ADDON),
    });
    expect(choice).toEqual({ kind: 'binding', path: join(dir, SQLITE_ADDON) });
  });
});

describe('STU-08 npm start with the binary present and no build for its ABI', () => {
  it('prebuild-install offline (the real one, a refusing host) → one message naming the prebuilt it wanted and where from, exit 1', async () => {
    const paths = fakeCheckout();
    installElectron(paths);
    const port = await closedPort();
    const { ctx, text } = context(paths, baseEnv({ npm_config_better_sqlite3_binary_host: `http://127.0.0.1:${port}` }));
    const { calls, launcher } = recordingLauncher();
    expect(await startDesktop(ctx, [], launcher)).toBe(EXIT_FAILED);
    const out = text();
    expect(out).toContain(`better-sqlite3 ${SQLITE_VERSION} built for Electron ${ELECTRON_VERSION} (ABI 145, ${PLATFORM}-${ARCH}) could not be fetched`);
    expect(out).toContain(`from:   http://127.0.0.1:${port}/v${SQLITE_VERSION}/better-sqlite3-v${SQLITE_VERSION}-electron-v145-${PLATFORM}-${ARCH}.tar.gz`);
    expect(out).toMatch(/error: {2}.*ECONNREFUSED/);
    expect(out).not.toMatch(/^\s+at /m);
    expect(calls).toEqual([]);
    const dir = electronSqliteDir(paths.root, SQLITE_VERSION, { abi: 145, platform: PLATFORM, arch: ARCH });
    expect(existsSync(dir) || existsSync(`${dir}.partial`)).toBe(false); // nothing half-written
  });

  it.runIf(PLATFORM === 'linux' && ARCH === 'x64')('refuses a fetched build for the wrong ABI (read from the file) and keeps nothing of it', async () => {
    const paths = fakeCheckout();
    installElectron(paths);
    const wrong = addonForAbi(Number(process.versions.modules)).toString('base64');
    paths.prebuildInstall = fakeScript(
      join(paths.root, 'fake-prebuild', 'bin.js'),
      `
      require('node:fs').mkdirSync('build/Release', { recursive: true });
      require('node:fs').writeFileSync('build/Release/better_sqlite3.node', Buffer.from('${wrong}', 'base64'));`,
    );
    const { ctx, text } = context(paths, baseEnv({}));
    expect(await startDesktop(ctx, [], recordingLauncher().launcher)).toBe(EXIT_FAILED);
    expect(text()).toContain(`the fetched build is ELF x64, ABI ${process.versions.modules}, not ABI 145`);
    expect(existsSync(electronSqliteDir(paths.root, SQLITE_VERSION, { abi: 145, platform: PLATFORM, arch: ARCH }))).toBe(false);
  });

  it('with ELECTRON_SKIP_BINARY_DOWNLOAD a stale build for another ABI is reported, never re-fetched', async () => {
    const paths = fakeCheckout();
    installElectron(paths);
    const prebuild = fakeScript(join(paths.root, 'fake-prebuild', 'bin.js'), 'process.exit(0);');
    paths.prebuildInstall = prebuild;
    const stale = join(electronSqliteDir(paths.root, SQLITE_VERSION, { abi: 145, platform: PLATFORM, arch: ARCH }), SQLITE_ADDON);
    mkdirSync(dirname(stale), { recursive: true });
    writeFileSync(stale, addonForAbi(137));
    const { ctx, text } = context(paths, baseEnv({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }));
    expect(await startDesktop(ctx, [], recordingLauncher().launcher)).toBe(EXIT_FAILED);
    expect(existsSync(`${prebuild}.ran`)).toBe(false);
    expect(text()).toContain('ELECTRON_SKIP_BINARY_DOWNLOAD=1 says not to fetch it');
  });
});

describe('STU-08 the line shown from a failed downloader', () => {
  it("keeps the error of install.js's stack trace and prebuild-install's last warning", () => {
    const stack =
      'RequestError: getaddrinfo ENOTFOUND github.com\n    at ClientRequest.<anonymous> (/x/got/source/core/index.js:970:111)\n    at Object.onceWrapper (node:events:634:26)\n';
    expect(errorLine(stack)).toBe('getaddrinfo ENOTFOUND github.com');
    const prebuild =
      'prebuild-install info begin Prebuild-install version 7.1.3\nprebuild-install http request GET https://x\nprebuild-install warn install connect ECONNREFUSED 127.0.0.1:9\n';
    expect(errorLine(prebuild)).toBe('connect ECONNREFUSED 127.0.0.1:9');
    expect(errorLine('')).toBe('it exited without saying why');
  });
});
