import type Database from 'better-sqlite3';
import type { Migration } from './migrations';

/**
 * Brings the database schema up to date: applies, in order, every migration newer than the version
 * recorded in `schema_version`, all inside one immediate transaction (a failure leaves the schema as it
 * was; two processes opening the same file at once apply each migration once). Refuses a database written
 * by a newer app. Returns the versions applied.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[], now: () => number = Date.now): number[] {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration "${m.name}" has version ${m.version}, expected ${i + 1}`);
  });
  const apply = db.transaction((): number[] => {
    db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    const current = (db.prepare('SELECT COALESCE(MAX(version), 0) AS version FROM schema_version').get() as { version: number }).version;
    if (current > migrations.length) {
      throw new Error(`the database schema is at version ${current}, newer than this app knows (${migrations.length}): use a newer Yukta Studio`);
    }
    const record = db.prepare('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)');
    const applied: number[] = [];
    for (const m of migrations.slice(current)) {
      db.exec(m.sql);
      record.run(m.version, m.name, now());
      applied.push(m.version);
    }
    return applied;
  });
  return apply.immediate();
}

/** The schema version recorded in the database (0 for a new one). */
export function schemaVersion(db: Database.Database): number {
  const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").get();
  if (!table) return 0;
  return (db.prepare('SELECT COALESCE(MAX(version), 0) AS version FROM schema_version').get() as { version: number }).version;
}
