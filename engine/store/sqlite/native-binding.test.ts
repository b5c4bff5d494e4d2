import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openStores, type DurableStores } from '../durable-stores';
import { openDatabase } from './open-database';
import { SqliteExecutionLog } from './sqlite-execution-log';
import { SqliteWriter } from './sqlite-writer';

/** Node's own build of better-sqlite3, copied to a folder of its own (as the desktop app keeps Electron's). */
function copiedAddon(): string {
  const packageDir = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
  const copy = join(mkdtempSync(join(tmpdir(), 'yukta-native-')), 'better_sqlite3.node');
  copyFileSync(join(packageDir, 'build', 'Release', 'better_sqlite3.node'), copy);
  return copy;
}

const mapped = (file: string) => readFileSync('/proc/self/maps', 'utf8').includes(file);
const open: DurableStores[] = [];
afterEach(async () => {
  for (const stores of open.splice(0)) await stores.close();
});

describe("STU-08 SQLite store: the nativeBinding option (the desktop app loads a build for Electron's ABI)", () => {
  it.runIf(process.platform === 'linux')('loads the addon it is given, and the stores work on it', async () => {
    const addon = copiedAddon();
    expect(mapped(addon)).toBe(false);
    const dataDir = mkdtempSync(join(tmpdir(), 'yukta-native-data-'));
    const stores = openStores({ kind: 'sqlite', dataDir, nativeBinding: addon });
    open.push(stores);
    expect(mapped(addon)).toBe(true);
    await stores.definitions.save('default', { workflowId: 'w', description: '', nodes: [], edges: [] }, { version: 'v1', savedAt: 1 });
    expect((await stores.definitions.list('default')).map((w) => w.definition.workflowId)).toEqual(['w']);
  });

  it('refuses an addon that is not there, naming it, before any database file is made', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'yukta-native-data-'));
    const missing = join(dataDir, 'nowhere', 'better_sqlite3.node');
    expect(() => openStores({ kind: 'sqlite', dataDir, nativeBinding: missing })).toThrow(missing);
    expect(existsSync(join(dataDir, 'yukta.db'))).toBe(false);
  });

  it('hands the same addon to the checkpoint worker: a good one checkpoints there, a bad one leaves checkpoints to the connection', async () => {
    for (const [binding, works] of [
      [copiedAddon(), true],
      ['/nonexistent/better_sqlite3.node', false],
    ] as const) {
      const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'yukta-native-wal-')), 'yukta.db'));
      const writer = new SqliteWriter(db, { nativeBinding: binding });
      const log = new SqliteExecutionLog(writer, { compactAfter: Number.POSITIVE_INFINITY });
      for (let i = 0; i < 40; i++) {
        log.append({ runId: `r${i}`, type: 'RUN_STARTED', status: 'PENDING', actor: 'engine', at: i, data: {} });
        await log.flush();
      }
      if (works) await vi.waitFor(() => expect(writer.workerCheckpoints).toBeGreaterThan(0), { timeout: 10_000 });
      else await vi.waitFor(() => expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000), { timeout: 10_000 });
      expect(writer.workerCheckpoints > 0).toBe(works);
      writer.close();
      db.close();
    }
  });
});
