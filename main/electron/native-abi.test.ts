import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseSqliteBinding, describeNativeBuild, electronSqliteDir, loadsOnAbi, readNativeBuild } from './native-abi';

const nodeAddon = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');

/** A header of `size` zero bytes with the given fields, and a symbol name further on (as in a symbol table). */
function binary(fields: Array<[offset: number, write: (b: Buffer, at: number) => void]>, symbol: string, size = 512): Buffer {
  const bytes = Buffer.alloc(size);
  for (const [offset, write] of fields) write(bytes, offset);
  bytes.write(symbol, 300, 'latin1');
  return bytes;
}

describe('STU-08 native addon ABI, read from the .node file', () => {
  it.runIf(process.platform === 'linux' && process.arch === 'x64')("reads this machine's better-sqlite3 build: ELF x64 for Node's ABI", () => {
    const info = readNativeBuild(readFileSync(nodeAddon));
    expect(info).toEqual({ format: 'ELF', arch: 'x64', abis: [Number(process.versions.modules)], napi: false });
    expect(describeNativeBuild(info)).toBe(`ELF x64, ABI ${process.versions.modules}`);
    expect(loadsOnAbi(info, Number(process.versions.modules))).toBe(true);
    expect(loadsOnAbi(info, 145)).toBe(false);
  });

  it('reads Mach-O (thin and universal) and PE headers and the registration symbol in each', () => {
    const machO = binary(
      [
        [0, (b, at) => b.writeUInt32LE(0xfeedfacf, at)],
        [4, (b, at) => b.writeUInt32LE(0x0100000c, at)],
      ],
      '_node_register_module_v145',
    );
    expect(readNativeBuild(machO)).toEqual({ format: 'Mach-O', arch: 'arm64', abis: [145], napi: false });
    const fat = binary([[0, (b, at) => b.writeUInt32BE(0xcafebabe, at)]], '_node_register_module_v145');
    expect(readNativeBuild(fat).arch).toBe('universal');
    const pe = binary(
      [
        [0, (b, at) => b.write('MZ', at, 'latin1')],
        [0x3c, (b, at) => b.writeUInt32LE(0x80, at)],
        [0x80, (b, at) => b.writeUInt32BE(0x50450000, at)],
        [0x84, (b, at) => b.writeUInt16LE(0x8664, at)],
      ],
      'node_register_module_v137',
    );
    expect(readNativeBuild(pe)).toEqual({ format: 'PE', arch: 'x64', abis: [137], napi: false });
    const elfArm = binary(
      [
        [0, (b, at) => b.writeUInt32BE(0x7f454c46, at)],
        [5, (b, at) => b.writeUInt8(1, at)],
        [18, (b, at) => b.writeUInt16LE(183, at)],
      ],
      'node_register_module_v115',
    );
    expect(describeNativeBuild(readNativeBuild(elfArm))).toBe('ELF arm64, ABI 115');
  });

  it('knows a Node-API addon loads anywhere, and a file with no registration (or two) loads nowhere', () => {
    const napi = binary(
      [
        [0, (b, at) => b.writeUInt32BE(0x7f454c46, at)],
        [18, (b, at) => b.writeUInt16LE(62, at)],
      ],
      'napi_register_module_v1',
    );
    expect(loadsOnAbi(readNativeBuild(napi), 145)).toBe(true);
    expect(describeNativeBuild(readNativeBuild(napi))).toBe('ELF x64, Node-API (any ABI)');
    const text = Buffer.from('just some text, no addon here');
    expect(readNativeBuild(text)).toEqual({ format: 'unknown', arch: null, abis: [], napi: false });
    expect(loadsOnAbi(readNativeBuild(text), 145)).toBe(false);
    const both = Buffer.from('node_register_module_v115 … node_register_module_v145');
    expect(readNativeBuild(both).abis).toEqual([115, 145]);
    expect(loadsOnAbi(readNativeBuild(both), 145)).toBe(false);
  });
});

describe("STU-08 the desktop main's choice of better-sqlite3 addon", () => {
  const files = new Map<string, Buffer>();
  const target = { abi: 145, platform: 'linux', arch: 'x64' };
  const query = {
    ...target,
    packaged: false,
    appRoot: '/app',
    sqliteVersion: '12.11.1',
    packageAddon: '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node',
    readFile: (p: string) => files.get(p)!,
    exists: (p: string) => files.has(p),
  };
  const copy = '/app/.desktop-native/better-sqlite3-12.11.1-electron-abi145-linux-x64/build/Release/better_sqlite3.node';

  it('names its folder by package version, ABI, platform and CPU', () => {
    expect(electronSqliteDir('/app', '12.11.1', target)).toBe('/app/.desktop-native/better-sqlite3-12.11.1-electron-abi145-linux-x64');
  });

  it("uses the packaged app's own build, else the .desktop-native build when it fits, else says what to run", () => {
    files.clear();
    files.set(query.packageAddon, Buffer.from('node_register_module_v115'));
    expect(chooseSqliteBinding({ ...query, packaged: true })).toEqual({ kind: 'package' });
    const missing = chooseSqliteBinding(query);
    expect(missing.kind).toBe('missing');
    expect(missing.kind === 'missing' && missing.message).toContain('ABI 145');
    expect(missing.kind === 'missing' && missing.message).toContain('ABI 115');
    expect(missing.kind === 'missing' && missing.message).toContain('npm start');
    files.set(copy, Buffer.from('node_register_module_v137'));
    expect(chooseSqliteBinding(query).kind).toBe('missing'); // a stale build for another Electron is not loaded
    files.set(copy, Buffer.from('node_register_module_v145'));
    expect(chooseSqliteBinding(query)).toEqual({ kind: 'binding', path: copy });
    files.delete(copy);
    files.set(query.packageAddon, Buffer.from('node_register_module_v145')); // rebuilt in place by hand
    expect(chooseSqliteBinding(query)).toEqual({ kind: 'package' });
  });
});
