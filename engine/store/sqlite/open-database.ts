import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';

/** The database file under a data folder. */
export const DATABASE_FILE = 'yukta.db';

export interface SqliteOpenOptions {
  /**
   * better-sqlite3's compiled addon (`…/better_sqlite3.node`) to load instead of the package's own build:
   * the desktop app passes a build for Electron's ABI, so Node (serve mode, tests) keeps the package's.
   */
  nativeBinding?: string | undefined;
}

/**
 * Opens (creating if needed) the studio's SQLite database with the settings the stores rely on, and
 * migrates it. WAL lets readers work beside the one writer; `synchronous=NORMAL` keeps a commit at tens of
 * microseconds (FULL costs ~7× per transaction, STACK.md) and, in WAL mode, can lose only the last
 * commits on power loss, never corrupt the file.
 */
export function openDatabase(file: string, options: SqliteOpenOptions = {}): Database.Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { timeout: 5000, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
