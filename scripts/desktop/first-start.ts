/**
 * The decisions of `npm start` on a user's machine (STU-08): fetch the Electron binary with Electron's own
 * installer when it is missing, and a better-sqlite3 build for Electron's ABI into a folder of its own
 * (`.desktop-native/`, loaded by the desktop main through `nativeBinding`), so Node's build in
 * node_modules — serve mode, the tests — is never replaced. Every failure is one message: what could not
 * be fetched, from where, why, and what to do instead. Nothing here runs Electron or builds the app.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describeNativeBuild, electronSqliteDir, loadsOnAbi, readNativeBuild, SQLITE_ADDON, DESKTOP_NATIVE_DIR } from '../../main/electron/native-abi';
import { electronCacheDir, electronDownloadUrl, inspectElectron, networkRefusedBy, sqlitePrebuildUrl, type ElectronPackage } from './electron-package';
import { runFetcher, type FetcherRun } from './fetch-child';

type Env = Record<string, string | undefined>;

/** Where things are: the checkout and the packages the start script reads. */
export interface DesktopPaths {
  root: string;
  /** `node_modules/electron` */
  electronDir: string;
  /** `node_modules/better-sqlite3` */
  sqliteDir: string;
  /** prebuild-install's `bin.js` */
  prebuildInstall: string;
}

export function desktopPaths(root: string): DesktopPaths {
  return {
    root,
    electronDir: join(root, 'node_modules', 'electron'),
    sqliteDir: join(root, 'node_modules', 'better-sqlite3'),
    prebuildInstall: join(root, 'node_modules', 'prebuild-install', 'bin.js'),
  };
}

export interface StartContext {
  paths: DesktopPaths;
  env: Env;
  platform: string;
  arch: string;
  /** The Node that runs the installers (`process.execPath`). */
  node: string;
  write: (text: string) => void;
  tty?: boolean;
}

export type Step<T> = { ok: true; value: T } | { ok: false; message: string };

const SERVE_INSTEAD = 'or:     use the studio in your browser instead (no download needed): npm run serve';

/** The one message of a failed fetch. */
export function cannotFetch(what: string, from: string, error: string, fix: string): string {
  return [
    `Yukta Studio cannot start the desktop app: ${what} could not be fetched.`,
    `  from:   ${from}`,
    `  error:  ${error}`,
    `  fix:    ${fix}`,
    `  ${SERVE_INSTEAD}`,
  ].join('\n');
}

/** The one message when the environment forbids the network. */
export function notFetched(what: string, from: string, refusedBy: string): string {
  return [
    `Yukta Studio cannot start the desktop app: ${what} is not installed, and ${refusedBy} says not to fetch it (nothing was downloaded).`,
    `  from:   ${from} (where it would come from)`,
    `  fix:    run npm start without ${refusedBy.split('=')[0]} on a machine with the internet`,
    `  ${SERVE_INSTEAD}`,
  ].join('\n');
}

function sqliteVersion(paths: DesktopPaths): string {
  const manifest = JSON.parse(readFileSync(join(paths.sqliteDir, 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof manifest.version !== 'string') throw new Error(`${paths.sqliteDir}/package.json has no version`);
  return manifest.version;
}

function fetcher(ctx: StartContext, run: Omit<FetcherRun, 'write' | 'tty' | 'command' | 'env'>): FetcherRun {
  return { ...run, command: ctx.node, env: ctx.env, write: ctx.write, ...(ctx.tty === undefined ? {} : { tty: ctx.tty }) };
}

/** The Electron binary: there already, or fetched now with `node node_modules/electron/install.js`. */
export async function ensureElectron(ctx: StartContext): Promise<Step<ElectronPackage & { executable: string; abi: number }>> {
  const before = inspectElectron(ctx.paths.electronDir, ctx.platform, ctx.env);
  const installed = (pkg: ElectronPackage): Step<ElectronPackage & { executable: string; abi: number }> =>
    pkg.executable !== null && pkg.abi !== null
      ? { ok: true, value: { ...pkg, executable: pkg.executable, abi: pkg.abi } }
      : {
          ok: false,
          message: `Yukta Studio cannot start the desktop app: ${pkg.missing ?? 'node_modules/electron/abi_version is missing'}. Reinstall with npm install, or use npm run serve.`,
        };
  if (before.executable !== null) return installed(before);
  const what = `the Electron ${before.version} binary (${ctx.platform}-${ctx.arch})`;
  const from = electronDownloadUrl(before.version, ctx.platform, ctx.arch, ctx.env);
  const refusedBy = networkRefusedBy(ctx.env);
  if (refusedBy) return { ok: false, message: notFetched(what, from, refusedBy) };
  ctx.write(`Fetching ${what} once, with Electron's installer, from ${from}\n`);
  const outcome = await runFetcher(
    fetcher(ctx, {
      label: `Electron ${before.version}`,
      args: [join(ctx.paths.electronDir, 'install.js')],
      cwd: ctx.paths.electronDir,
      downloadDir: join(ctx.paths.root, DESKTOP_NATIVE_DIR, '.download'),
    }),
  );
  const fix = `connect to the internet and run npm start again; or set ELECTRON_MIRROR (and ELECTRON_CUSTOM_DIR) to a mirror you can reach; or put the zip into Electron's cache (${electronCacheDir(ctx.platform, ctx.env)})`;
  if (!outcome.ok) return { ok: false, message: cannotFetch(what, from, outcome.error, fix) };
  return installed(inspectElectron(ctx.paths.electronDir, ctx.platform, ctx.env));
}

/**
 * better-sqlite3 for Electron's ABI in `.desktop-native/…`: there already (and for this ABI, read from the
 * file), or fetched now by prebuild-install into a staging folder that replaces it only when complete.
 */
export async function ensureSqliteBuild(ctx: StartContext, electron: { version: string; abi: number }): Promise<Step<string>> {
  const version = sqliteVersion(ctx.paths);
  const target = { abi: electron.abi, platform: ctx.platform, arch: ctx.arch };
  const dir = electronSqliteDir(ctx.paths.root, version, target);
  const addon = join(dir, SQLITE_ADDON);
  if (existsSync(addon) && loadsOnAbi(readNativeBuild(readFileSync(addon)), electron.abi)) return { ok: true, value: addon };
  const what = `better-sqlite3 ${version} built for Electron ${electron.version} (ABI ${electron.abi}, ${ctx.platform}-${ctx.arch})`;
  const from = sqlitePrebuildUrl(version, electron.abi, ctx.platform, ctx.arch, ctx.env);
  const refusedBy = networkRefusedBy(ctx.env);
  if (refusedBy) return { ok: false, message: notFetched(what, from, refusedBy) };
  ctx.write(`Fetching ${what} once, with prebuild-install, from ${from}\n`);
  const staging = `${dir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  // prebuild-install reads the package's name, version and repository from the package.json in its folder.
  mkdirSync(staging, { recursive: true });
  copyFileSync(join(ctx.paths.sqliteDir, 'package.json'), join(staging, 'package.json'));
  const outcome = await runFetcher(
    fetcher(ctx, {
      label: `better-sqlite3 ${version}`,
      args: [ctx.paths.prebuildInstall, '--runtime', 'electron', '--target', electron.version, '--platform', ctx.platform, '--arch', ctx.arch],
      cwd: staging,
    }),
  );
  const fix = 'connect to the internet and run npm start again, or set npm_config_better_sqlite3_binary_host_mirror to a mirror you can reach';
  const fetched = join(staging, SQLITE_ADDON);
  if (!outcome.ok || !existsSync(fetched)) {
    rmSync(staging, { recursive: true, force: true });
    return { ok: false, message: cannotFetch(what, from, outcome.ok ? 'the download held no better_sqlite3.node' : outcome.error, fix) };
  }
  const info = readNativeBuild(readFileSync(fetched));
  if (!loadsOnAbi(info, electron.abi)) {
    rmSync(staging, { recursive: true, force: true });
    return { ok: false, message: cannotFetch(what, from, `the fetched build is ${describeNativeBuild(info)}, not ABI ${electron.abi}`, fix) };
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return { ok: true, value: addon };
}

/** Both steps in order; the launch needs the executable (the addon is found again by the desktop main). */
export async function prepareDesktop(ctx: StartContext): Promise<Step<{ executable: string; addon: string }>> {
  const electron = await ensureElectron(ctx);
  if (!electron.ok) return electron;
  const addon = await ensureSqliteBuild(ctx, electron.value);
  if (!addon.ok) return addon;
  return { ok: true, value: { executable: electron.value.executable, addon: addon.value } };
}
