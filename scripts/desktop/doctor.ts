/**
 * `npm run desktop:doctor` (STU-08): what the desktop app needs and what this checkout has — the Electron
 * binary, the ABI each runtime needs, the ABI of every better-sqlite3 build found (read from the `.node`
 * file itself), the data folders — and the one thing to do next.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import { dataDir } from '../../main/cli/paths';
import { describeNativeBuild, DESKTOP_NATIVE_DIR, electronSqliteDir, loadsOnAbi, readNativeBuild, SQLITE_ADDON } from '../../main/electron/native-abi';
import { inspectElectron, networkRefusedBy } from './electron-package';
import type { DesktopPaths } from './first-start';

type Env = Readonly<Record<string, string | undefined>>;

export interface DoctorContext {
  paths: DesktopPaths;
  env: Env;
  platform: string;
  arch: string;
  /** This Node's version and NODE_MODULE_VERSION (`process.versions`). */
  node: { version: string; modules: number };
  home?: string;
}

/** Electron's `app.getPath('userData')`: the OS's app data folder and the app's name (package.json productName). */
export function desktopDataDir(platform: string, env: Env, appName: string, home: string = homedir()): string {
  if (env.YUKTA_DATA_DIR) return env.YUKTA_DATA_DIR;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', appName);
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), appName);
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), appName);
}

interface Build {
  path: string;
  summary: string;
  node: boolean;
  electron: boolean;
}

function inspectBuild(path: string, nodeAbi: number, electronAbi: number | null): Build {
  const info = readNativeBuild(readFileSync(path));
  return { path, summary: describeNativeBuild(info), node: loadsOnAbi(info, nodeAbi), electron: electronAbi !== null && loadsOnAbi(info, electronAbi) };
}

/** Every better-sqlite3 addon in the checkout: the package's own and each under `.desktop-native/`. */
function findBuilds(ctx: DoctorContext, electronAbi: number | null): Build[] {
  const candidates = [join(ctx.paths.sqliteDir, SQLITE_ADDON)];
  const nativeRoot = join(ctx.paths.root, DESKTOP_NATIVE_DIR);
  if (existsSync(nativeRoot)) for (const name of readdirSync(nativeRoot).sort()) candidates.push(join(nativeRoot, name, SQLITE_ADDON));
  return candidates.filter((p) => existsSync(p)).map((p) => inspectBuild(p, ctx.node.modules, electronAbi));
}

function readJson(path: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** The report, one line per fact, ending with what to do next. */
export function doctorReport(ctx: DoctorContext): string {
  const electron = inspectElectron(ctx.paths.electronDir, ctx.platform, ctx.env);
  const sqliteVersion = String(readJson(join(ctx.paths.sqliteDir, 'package.json')).version ?? '?');
  const manifest = readJson(join(ctx.paths.root, 'package.json'));
  const appName = String(manifest.productName ?? manifest.name ?? 'Electron');
  const builds = findBuilds(ctx, electron.abi);
  const rel = (p: string) => relative(ctx.paths.root, p) || '.';
  const lines = ['Yukta Studio desktop doctor', ''];
  lines.push(`Electron ${electron.version}: ${electron.executable ? `binary ${electron.executable}` : `binary missing (${electron.missing})`}`);
  lines.push('ABI needed:');
  lines.push(`  Node ${ctx.node.version}: ${ctx.node.modules} (process.versions.modules) — serve mode, the CLI, npm test`);
  lines.push(`  Electron ${electron.version}: ${electron.abi ?? 'unknown'} (node_modules/electron/abi_version) — the desktop app`);
  lines.push(`better-sqlite3 ${sqliteVersion} builds found (ABI read from each .node file):`);
  for (const b of builds) {
    const loads = [b.node ? 'Node' : null, b.electron ? 'Electron' : null].filter(Boolean).join(' and ');
    lines.push(
      `  ${rel(b.path)}: ${b.summary} → ${loads ? `loads in ${loads}` : `loads in neither (Node needs ${ctx.node.modules}, Electron needs ${electron.abi ?? '?'})`}`,
    );
  }
  if (builds.length === 0) lines.push('  none');
  const wanted =
    electron.abi === null
      ? null
      : join(electronSqliteDir(ctx.paths.root, sqliteVersion, { abi: electron.abi, platform: ctx.platform, arch: ctx.arch }), SQLITE_ADDON);
  const electronBuild = wanted ? builds.find((b) => b.path === wanted && b.electron) : undefined;
  if (wanted && !electronBuild) lines.push(`  (the desktop app loads ${rel(wanted)}: ${existsSync(wanted) ? 'present but for another ABI' : 'not there yet'})`);
  lines.push('Data folder:');
  lines.push(`  desktop app: ${desktopDataDir(ctx.platform, ctx.env, appName, ctx.home)}${ctx.env.YUKTA_DATA_DIR ? ' (YUKTA_DATA_DIR)' : ''}`);
  lines.push(`  serve mode:  ${dataDir(undefined, ctx.env)}`);
  lines.push('', `Next: ${nextStep(electron.executable !== null, electronBuild !== undefined, networkRefusedBy(ctx.env))}`);
  return lines.join('\n');
}

function nextStep(binary: boolean, build: boolean, refusedBy: string | null): string {
  if (binary && build) return 'everything is in place: npm start opens the desktop app.';
  const missing = [binary ? null : 'the Electron binary', build ? null : "better-sqlite3 for Electron's ABI"].filter(Boolean).join(' and ');
  if (refusedBy)
    return `${missing} must be fetched, but ${refusedBy} forbids downloads here; run npm start on a machine with the internet, or use the studio in a browser: npm run serve.`;
  return `npm start fetches ${missing} (once, needs the internet), then opens the app. Offline: npm run serve (the studio in your browser).`;
}
