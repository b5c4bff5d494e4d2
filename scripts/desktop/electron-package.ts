/**
 * The Electron npm package as the desktop start script sees it (STU-08): is its binary there, which ABI it
 * needs, and where Electron's own installer (`install.js`, through @electron/get) would fetch it from. The
 * URL and cache rules follow @electron/get 2 so the messages name the place the installer really tried.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

export interface ElectronPackage {
  dir: string;
  version: string;
  /** NODE_MODULE_VERSION Electron needs (`abi_version` in the package), null when the file is missing. */
  abi: number | null;
  /** The executable when installed for this platform, else null. */
  executable: string | null;
  /** Why it counts as missing (for the doctor), null when installed. */
  missing: string | null;
}

/** The executable inside `dist/` for a platform (install.js's `getPlatformPath`). */
export function platformExecutable(platform: string): string {
  if (platform === 'darwin' || platform === 'mas') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** Reads `node_modules/electron` the way install.js decides whether it is installed. */
export function inspectElectron(dir: string, platform: string = process.platform, env: Env = process.env): ElectronPackage {
  const manifest = JSON.parse(readText(join(dir, 'package.json')) ?? '{}') as { version?: unknown };
  const version = typeof manifest.version === 'string' ? manifest.version : '';
  const abiText = readText(join(dir, 'abi_version'))?.trim();
  const abi = abiText && /^\d+$/.test(abiText) ? Number(abiText) : null;
  const base = { dir, version, abi };
  const wanted = platformExecutable(env.npm_config_platform || platform);
  const pathTxt = readText(join(dir, 'path.txt'));
  if (pathTxt === null) return { ...base, executable: null, missing: 'node_modules/electron/path.txt is absent: its installer never ran' };
  if (pathTxt !== wanted) return { ...base, executable: null, missing: `path.txt names "${pathTxt}", this platform needs "${wanted}"` };
  const installed = readText(join(dir, 'dist', 'version'))
    ?.trim()
    .replace(/^v/, '');
  if (installed !== version) return { ...base, executable: null, missing: `dist/version is ${installed ?? 'absent'}, the package is ${version}` };
  const executable = join(env.ELECTRON_OVERRIDE_DIST_PATH || join(dir, 'dist'), wanted);
  if (!existsSync(executable)) return { ...base, executable: null, missing: `${executable} does not exist` };
  return { ...base, executable, missing: null };
}

/** @electron/get's lookup of one mirror option: .npmrc (npm_config_electron_*), then ELECTRON_* variables. */
function mirrorVar(env: Env, name: 'mirror' | 'customDir' | 'customFilename'): string | undefined {
  const snake = name.replace(/([a-z])([A-Z])/g, (_, a: string, b: string) => `${a}_${b}`).toLowerCase();
  const names = [
    `npm_config_electron_${name.toLowerCase()}`,
    `NPM_CONFIG_ELECTRON_${snake.toUpperCase()}`,
    `npm_config_electron_${snake}`,
    `npm_package_config_electron_${name}`,
    `npm_package_config_electron_${snake}`,
    `ELECTRON_${snake.toUpperCase()}`,
  ];
  return names.map((n) => env[n]).find((v) => v) || undefined;
}

/** The URL Electron's installer downloads (ELECTRON_MIRROR, ELECTRON_CUSTOM_DIR, ELECTRON_CUSTOM_FILENAME honoured). */
export function electronDownloadUrl(version: string, platform: string, arch: string, env: Env = process.env): string {
  const base = mirrorVar(env, 'mirror') ?? 'https://github.com/electron/electron/releases/download/';
  const dir = (mirrorVar(env, 'customDir') ?? `v${version}`).replace('{{ version }}', version);
  // @electron/get names 32-bit ARM as Electron does.
  const file = mirrorVar(env, 'customFilename') ?? `electron-v${version}-${platform}-${arch === 'arm' ? 'armv7l' : arch}.zip`;
  return `${base}${dir}/${file}`;
}

/** Where @electron/get caches downloads (`electron_config_cache`, else the OS cache folder). */
export function electronCacheDir(platform: string = process.platform, env: Env = process.env, home: string = homedir()): string {
  if (env.electron_config_cache) return env.electron_config_cache;
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'electron');
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'electron', 'Cache');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'electron');
}

/** The prebuilt better-sqlite3 for Electron that prebuild-install fetches (its binary-host variables honoured). */
export function sqlitePrebuildUrl(version: string, abi: number, platform: string, arch: string, env: Env = process.env): string {
  const file = `better-sqlite3-v${version}-electron-v${abi}-${platform}-${arch}.tar.gz`;
  const host = env.npm_config_better_sqlite3_binary_host || env.npm_config_better_sqlite3_binary_host_mirror;
  return host ? `${host}/v${version}/${file}` : `https://github.com/WiseLibs/better-sqlite3/releases/download/v${version}/${file}`;
}

/**
 * Whether the script must stay off the network: ELECTRON_SKIP_BINARY_DOWNLOAD (any value, as install.js) or
 * CI (unless "false"/"0"). Returns the variable that says so, or null.
 */
export function networkRefusedBy(env: Env): string | null {
  if (env.ELECTRON_SKIP_BINARY_DOWNLOAD) return `ELECTRON_SKIP_BINARY_DOWNLOAD=${env.ELECTRON_SKIP_BINARY_DOWNLOAD}`;
  if (env.CI && env.CI !== 'false' && env.CI !== '0') return `CI=${env.CI}`;
  return null;
}
