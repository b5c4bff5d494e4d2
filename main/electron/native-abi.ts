/**
 * Which runtime a compiled Node addon (`.node`) was built for, read from the file itself, and where the
 * desktop app keeps its build of better-sqlite3 for Electron's ABI (STU-08). Plain Node: the start script,
 * `npm run desktop:doctor` and the Electron main all use it; no Electron import.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type BinaryFormat = 'ELF' | 'Mach-O' | 'PE' | 'unknown';

/** What a `.node` file says about itself. */
export interface NativeBuildInfo {
  format: BinaryFormat;
  /** Node's name of the CPU (`x64`, `arm64`, `ia32`, `arm`), or null when the header names another. */
  arch: string | null;
  /**
   * The NODE_MODULE_VERSIONs it registers for (`node_register_module_v<N>`): one for a classic addon;
   * empty for a Node-API addon (ABI-stable) or a file that is no addon.
   */
  abis: number[];
  /** True for a Node-API addon (`napi_register_module_v1`), which loads on any runtime's ABI. */
  napi: boolean;
}

const ELF_MACHINES: Record<number, string> = { 3: 'ia32', 40: 'arm', 62: 'x64', 183: 'arm64' };
const MACHO_CPUS: Record<number, string> = { 7: 'ia32', 12: 'arm', 0x01000007: 'x64', 0x0100000c: 'arm64' };
const PE_MACHINES: Record<number, string> = { 0x14c: 'ia32', 0x1c4: 'arm', 0x8664: 'x64', 0xaa64: 'arm64' };

function headerOf(bytes: Buffer): { format: BinaryFormat; arch: string | null } {
  if (bytes.length >= 20 && bytes.readUInt32BE(0) === 0x7f454c46) {
    // e_machine at 18, in the file's byte order (EI_DATA at 5: 1 little, 2 big).
    const machine = bytes[5] === 2 ? bytes.readUInt16BE(18) : bytes.readUInt16LE(18);
    return { format: 'ELF', arch: ELF_MACHINES[machine] ?? null };
  }
  if (bytes.length >= 8) {
    const magic = bytes.readUInt32LE(0);
    if (magic === 0xfeedfacf || magic === 0xfeedface) return { format: 'Mach-O', arch: MACHO_CPUS[bytes.readUInt32LE(4)] ?? null };
    // A universal (fat) binary holds several architectures: big-endian header, count at 4.
    if (bytes.readUInt32BE(0) === 0xcafebabe) return { format: 'Mach-O', arch: 'universal' };
  }
  if (bytes.length >= 64 && bytes[0] === 0x4d && bytes[1] === 0x5a) {
    const pe = bytes.readUInt32LE(0x3c);
    if (pe + 6 <= bytes.length && bytes.readUInt32BE(pe) === 0x50450000) return { format: 'PE', arch: PE_MACHINES[bytes.readUInt16LE(pe + 4)] ?? null };
  }
  return { format: 'unknown', arch: null };
}

/**
 * Reads a `.node` file's format, CPU and ABI. The ABI is the number in the exported registration symbol
 * `node_register_module_v<N>` (what `NODE_MODULE_VERSION` compiles to), which ELF, Mach-O (`_`-prefixed)
 * and PE all keep as plain text in their symbol or export tables.
 */
export function readNativeBuild(bytes: Buffer): NativeBuildInfo {
  const text = bytes.toString('latin1');
  const abis = new Set<number>();
  for (const match of text.matchAll(/node_register_module_v(\d{1,4})(?!\d)/g)) abis.add(Number(match[1]));
  return { ...headerOf(bytes), abis: [...abis].sort((a, b) => a - b), napi: text.includes('napi_register_module_v1') };
}

/** `ELF x64, ABI 115` / `Node-API` / `no Node addon` — one phrase for messages. */
export function describeNativeBuild(info: NativeBuildInfo): string {
  const kind = `${info.format}${info.arch ? ` ${info.arch}` : ''}`;
  if (info.abis.length) return `${kind}, ABI ${info.abis.join(' and ')}`;
  if (info.napi) return `${kind}, Node-API (any ABI)`;
  return `${kind}, no Node addon registration found`;
}

/** Whether an addon loads on a runtime that needs `abi`. */
export function loadsOnAbi(info: NativeBuildInfo, abi: number): boolean {
  return info.napi || (info.abis.length === 1 && info.abis[0] === abi);
}

/** Folder (under the checkout) where the start script keeps native builds for Electron. */
export const DESKTOP_NATIVE_DIR = '.desktop-native';
/** The addon's path inside a package folder (node-gyp / prebuild-install layout). */
export const SQLITE_ADDON = join('build', 'Release', 'better_sqlite3.node');

export interface RuntimeTarget {
  /** NODE_MODULE_VERSION the runtime needs (`process.versions.modules`, Electron's `abi_version`). */
  abi: number;
  platform: string;
  arch: string;
}

/**
 * The folder of one better-sqlite3 build for Electron: versioned by package, ABI, platform and CPU, so an
 * upgrade of either never loads a stale build, and Node's own build in node_modules is never touched.
 */
export function electronSqliteDir(root: string, sqliteVersion: string, target: RuntimeTarget): string {
  return join(root, DESKTOP_NATIVE_DIR, `better-sqlite3-${sqliteVersion}-electron-abi${target.abi}-${target.platform}-${target.arch}`);
}

/** What the desktop main passes to better-sqlite3. */
export type SqliteBindingChoice = { kind: 'package' } | { kind: 'binding'; path: string } | { kind: 'missing'; message: string };

export interface SqliteBindingQuery extends RuntimeTarget {
  /** `app.isPackaged`: electron-builder rebuilt node_modules for Electron, the package's own build fits. */
  packaged: boolean;
  /** The app's folder (`app.getAppPath()`): the checkout when started with `npm start`. */
  appRoot: string;
  sqliteVersion: string;
  /** better-sqlite3's own addon (`node_modules/better-sqlite3/build/Release/better_sqlite3.node`). */
  packageAddon: string;
  readFile?: (path: string) => Buffer;
  exists?: (path: string) => boolean;
}

/**
 * Picks better-sqlite3's addon for the running Electron: the packaged app's own; else the build the start
 * script put under `.desktop-native/` when it fits this ABI; else the package's own when it happens to fit
 * (a manual rebuild); else a message saying what is wrong and what to run.
 */
export function chooseSqliteBinding(q: SqliteBindingQuery): SqliteBindingChoice {
  if (q.packaged) return { kind: 'package' };
  const read = q.readFile ?? ((path: string) => readFileSync(path));
  const exists = q.exists ?? existsSync;
  const fits = (path: string): NativeBuildInfo | null => (exists(path) ? readNativeBuild(read(path)) : null);
  const copy = join(electronSqliteDir(q.appRoot, q.sqliteVersion, q), SQLITE_ADDON);
  const copyInfo = fits(copy);
  if (copyInfo && loadsOnAbi(copyInfo, q.abi)) return { kind: 'binding', path: copy };
  const own = fits(q.packageAddon);
  if (own && loadsOnAbi(own, q.abi)) return { kind: 'package' };
  const found = [copyInfo ? `${copy} (${describeNativeBuild(copyInfo)})` : null, own ? `${q.packageAddon} (${describeNativeBuild(own)})` : null].filter(
    Boolean,
  );
  return {
    kind: 'missing',
    message:
      `better-sqlite3 has no build for this Electron (ABI ${q.abi}, ${q.platform}-${q.arch}). ` +
      `Found: ${found.length ? found.join('; ') : 'none'}. ` +
      'Start the desktop app with `npm start`, which fetches one into .desktop-native/, or run `npm run desktop:doctor`.',
  };
}
