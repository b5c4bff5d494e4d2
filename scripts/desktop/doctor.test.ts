import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronSqliteDir, SQLITE_ADDON } from '../../main/electron/native-abi';
import { desktopDataDir, doctorReport } from './doctor';
import { addonForAbi, ELECTRON_VERSION, fakeCheckout, installElectron, SQLITE_VERSION } from './fake-checkout';

const node = { version: 'v20.20.2', modules: 115 };
const target = { abi: 145, platform: 'linux', arch: 'x64' };

describe('STU-08 npm run desktop:doctor', () => {
  it('with the binary present and a native build for the wrong ABI, names the binary, both ABIs and each build', () => {
    const paths = fakeCheckout();
    const executable = installElectron(paths, 'linux');
    const wrong = join(electronSqliteDir(paths.root, SQLITE_VERSION, target), SQLITE_ADDON);
    mkdirSync(dirname(wrong), { recursive: true });
    writeFileSync(wrong, addonForAbi(115));
    const report = doctorReport({ paths, env: { YUKTA_DATA_DIR: '/data/yukta' }, platform: 'linux', arch: 'x64', node });
    expect(report).toContain(`Electron ${ELECTRON_VERSION}: binary ${executable}`);
    expect(report).toContain('Node v20.20.2: 115 (process.versions.modules)');
    expect(report).toContain(`Electron ${ELECTRON_VERSION}: 145 (node_modules/electron/abi_version)`);
    expect(report).toMatch(/node_modules\/better-sqlite3\/build\/Release\/better_sqlite3\.node: \w+ \w+, ABI 115 → loads in Node\n/);
    expect(report).toContain(`.desktop-native/better-sqlite3-${SQLITE_VERSION}-electron-abi145-linux-x64/build/Release/better_sqlite3.node: `);
    expect(report).toMatch(/electron-abi145-linux-x64\/build\/Release\/better_sqlite3\.node: \w+ \w+, ABI 115 → loads in Node\n/);
    expect(report).toContain('present but for another ABI');
    expect(report).toContain('desktop app: /data/yukta (YUKTA_DATA_DIR)');
    expect(report).toContain("Next: npm start fetches better-sqlite3 for Electron's ABI (once, needs the internet)");
  });

  it('with nothing fetched and downloads forbidden, says the binary is missing and what to do instead', () => {
    const paths = fakeCheckout();
    const report = doctorReport({ paths, env: { CI: 'true' }, platform: 'linux', arch: 'x64', node, home: '/home/ada' });
    expect(report).toContain('binary missing (node_modules/electron/path.txt is absent: its installer never ran)');
    expect(report).toContain('desktop app: /home/ada/.config/Yukta Studio');
    expect(report).toContain('but CI=true forbids downloads here');
    expect(report).toContain('npm run serve');
  });

  it('with the binary and a build for ABI 145 in place, says npm start opens the app', () => {
    const paths = fakeCheckout();
    installElectron(paths, 'linux');
    const good = join(electronSqliteDir(paths.root, SQLITE_VERSION, target), SQLITE_ADDON);
    mkdirSync(dirname(good), { recursive: true });
    writeFileSync(good, addonForAbi(145));
    const report = doctorReport({ paths, env: {}, platform: 'linux', arch: 'x64', node });
    expect(report).toMatch(/electron-abi145-linux-x64\/build\/Release\/better_sqlite3\.node: \w+ \w+, ABI 145 → loads in Electron\n/);
    expect(report).toContain('Next: everything is in place: npm start opens the desktop app.');
  });

  it("puts Electron's userData where each OS does", () => {
    expect(desktopDataDir('linux', { XDG_CONFIG_HOME: '/x' }, 'Yukta Studio', '/home/ada')).toBe('/x/Yukta Studio');
    expect(desktopDataDir('darwin', {}, 'Yukta Studio', '/Users/ada')).toBe('/Users/ada/Library/Application Support/Yukta Studio');
    expect(desktopDataDir('win32', { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'Yukta Studio', 'C:\\Users\\ada')).toContain('Yukta Studio');
  });
});
