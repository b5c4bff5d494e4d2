import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkflowDefinition } from '../../../shared/workflow/definition.schema';
import { contentHash } from '../../definitions/content-hash';
import { migrate, schemaVersion } from './migrate';
import { MIGRATIONS, type Migration } from './migrations';
import { openDatabase } from './open-database';
import { SqliteDefinitionStore } from './sqlite-definition-store';

const def = (description: string) => WorkflowDefinition.parse({ workflowId: 'w', description, nodes: [], edges: [] });
const dbFile = async () => join(await mkdtemp(join(tmpdir(), 'yukta-sqlite-')), 'yukta.db');

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
function track<T extends { close(): unknown }>(x: T): T {
  closers.push(() => x.close());
  return x;
}

describe('DEF-01 SQLite database', () => {
  it('opens in WAL mode with synchronous=NORMAL at the newest schema version', async () => {
    const db = track(openDatabase(await dbFile()));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    expect(db.prepare('SELECT version, name FROM schema_version ORDER BY version').all()).toEqual(
      MIGRATIONS.map((m) => ({ version: m.version, name: m.name })),
    );
  });

  it('applies migrations once, in order, and only the new ones', () => {
    const db = track(new Database(':memory:'));
    expect(migrate(db, MIGRATIONS.slice(0, 1), () => 1)).toEqual([1]);
    expect(migrate(db, MIGRATIONS.slice(0, 2), () => 2)).toEqual([2]);
    expect(migrate(db, MIGRATIONS.slice(0, 2))).toEqual([]);
    expect(db.prepare('SELECT version, applied_at FROM schema_version').all()).toEqual([
      { version: 1, applied_at: 1 },
      { version: 2, applied_at: 2 },
    ]);
    expect(migrate(db, MIGRATIONS, () => 3)).toEqual(MIGRATIONS.slice(2).map((m) => m.version));
  });

  it('rolls a failing migration back, leaving the schema as it was', () => {
    const db = track(new Database(':memory:'));
    migrate(db, MIGRATIONS.slice(0, 1));
    const broken: Migration = { version: 2, name: 'broken', sql: 'CREATE TABLE half (x INTEGER); SELECT * FROM no_such_table;' };
    expect(() => migrate(db, [MIGRATIONS[0]!, broken])).toThrow('no_such_table');
    expect(schemaVersion(db)).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined();
  });

  it('refuses a database from a newer app and migrations out of order', () => {
    const db = track(new Database(':memory:'));
    migrate(db, MIGRATIONS);
    db.prepare("INSERT INTO schema_version VALUES (99, 'future', 0)").run();
    expect(() => migrate(db, MIGRATIONS)).toThrow('newer than this app');
    expect(() => migrate(track(new Database(':memory:')), [MIGRATIONS[1]!])).toThrow('expected 1');
  });

  it('keeps definitions across reopening the file', async () => {
    const file = await dbFile();
    const d = def('kept');
    const first = SqliteDefinitionStore.open(file);
    await first.save('s', d, { version: contentHash(d), savedAt: 1, note: 'n' });
    await first.close();
    const again = track(SqliteDefinitionStore.open(file));
    expect(await again.get('s', 'w')).toEqual({ session: 's', definition: d, version: contentHash(d), savedAt: 1, note: 'n' });
  });

  it('two connections to one file (two processes) keep every save; the later one wins', async () => {
    const file = await dbFile();
    const [one, two] = [track(SqliteDefinitionStore.open(file)), track(SqliteDefinitionStore.open(file))];
    const [a, b] = [def('from one'), def('from two')];
    await Promise.all([one.save('s', a, { version: contentHash(a), savedAt: 1 }), two.save('s', b, { version: contentHash(b), savedAt: 2 })]);
    expect((await one.get('s', 'w'))?.definition.description).toBe('from two');
    expect((await two.versions('s', 'w')).map((v) => v.savedAt)).toEqual([2, 1]);
  });
});
