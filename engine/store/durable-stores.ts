import { join } from 'node:path';
import type { CheckpointStore } from './checkpoint-store';
import type { DefinitionStore } from './definition-store';
import type { ExecutionLog, LogRetentionOptions } from './execution-log';
import { FileCheckpointStore } from './file/file-checkpoint-store';
import { FileDefinitionStore } from './file/file-definition-store';
import { JsonlExecutionLog } from './file/jsonl-execution-log';
import { DEFAULT_CHECKPOINT_CAPS, MemoryCheckpointStore } from './memory/memory-checkpoint-store';
import { MemoryDefinitionStore } from './memory/memory-definition-store';
import { DATABASE_FILE, openDatabase } from './sqlite/open-database';
import { SqliteCheckpointStore } from './sqlite/sqlite-checkpoint-store';
import { SqliteDefinitionStore } from './sqlite/sqlite-definition-store';
import { SqliteExecutionLog } from './sqlite/sqlite-execution-log';
import { SqliteWriter } from './sqlite/sqlite-writer';
import type { KeyValueStore } from './key-value-store';
import { openPostgresStores } from './postgres/open-postgres-stores';
import type { PostgresConnectionOptions } from './postgres/postgres-connection';
import type { StoreWriteProblem } from './store-errors';

/** Where definitions, the execution log and checkpoints live (DEF-01, DUR-01, DUR-02, DUR-04). */
export const STORE_KINDS = ['sqlite', 'file', 'memory', 'postgres'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** The durability settings of DUR-01 and DUR-02 (execution log, checkpoints), already parsed. */
export interface DurabilitySettings {
  /** `yukta.execution-log.dir`: a JSONL log there instead of the kind's default. */
  logDir?: string | undefined;
  /** `yukta.execution-log.fsync` (false): fsync per batch (JSONL), `synchronous=FULL` (SQLite). */
  fsync?: boolean | undefined;
  retention?: Partial<LogRetentionOptions> | undefined;
  /** `yukta.restart.dir`: file checkpoints there instead of the kind's default. */
  checkpointDir?: string | undefined;
  /** `yukta.restart.spill-dir` (memory checkpoints only). */
  spillDir?: string | undefined;
  maxMessagesPerNode?: number | undefined;
  maxBytesPerNode?: number | undefined;
  /** The `postgres` kind's database (`yukta.postgres.*`, the URL already resolved from its secret). */
  postgres?: PostgresConnectionOptions | undefined;
}

/** The stores of one data folder (or database); `log` is null for `memory` (nothing to recover). */
export interface DurableStores {
  readonly kind: StoreKind;
  readonly definitions: DefinitionStore;
  readonly log: ExecutionLog | null;
  readonly checkpoints: CheckpointStore;
  /** Key–value state shared through the store (`postgres`); null: the host keeps it in files of the data folder. */
  readonly keyValues?: KeyValueStore | null;
  /** Where a store on a server is, for people (`user@host:port/database, schema s`: never the password). */
  readonly location?: string;
  /** Writes what is queued and closes every store. */
  close(): Promise<void>;
}

export interface OpenStoresOptions {
  kind: StoreKind;
  /** Needed by `sqlite` and `file`. */
  dataDir: string | null;
  settings?: DurabilitySettings;
  /** A torn last line of the JSONL log was skipped. */
  warn?: (message: string) => void;
  /** A background write failed (it is retried), or an entry could not be written at all (dropped). */
  onWriteError?: (error: StoreWriteProblem) => void;
  /** `sqlite` only: better-sqlite3's addon to load (the desktop app's build for Electron's ABI). */
  nativeBinding?: string | undefined;
}

/**
 * Opens the stores of a data folder, synchronously (at boot): `sqlite` — everything in `<data>/yukta.db`
 * through one writer (WAL; `fsync` → `synchronous=FULL`); `file` — JSON definitions, `<data>/logs/
 * executions.jsonl`, `<data>/checkpoints/`; `memory` — nothing on disk. `yukta.execution-log.dir` and
 * `yukta.restart.dir` move the log and the checkpoints to JSONL files in those folders for any kind but
 * memory.
 */
export function openStores(options: OpenStoresOptions): DurableStores {
  const s = options.settings ?? {};
  if (options.kind === 'postgres') throw new Error('the postgres store connects to its server asynchronously: open it with openDurableStores');
  if (options.kind === 'memory') {
    const checkpoints = new MemoryCheckpointStore({ ...DEFAULT_CHECKPOINT_CAPS, ...caps(s), spillDir: s.spillDir });
    return { kind: 'memory', definitions: new MemoryDefinitionStore(), log: null, checkpoints, close: async () => undefined };
  }
  const dataDir = options.dataDir;
  if (!dataDir) throw new Error(`the ${options.kind} store needs a data folder`);
  const { jsonl, files } = localStores(options);
  if (options.kind === 'file') {
    const log = jsonl(s.logDir ?? join(dataDir, 'logs'));
    const checkpoints = files(s.checkpointDir ?? join(dataDir, 'checkpoints'));
    const definitions = new FileDefinitionStore(dataDir);
    return { kind: 'file', definitions, log, checkpoints, close: closeAll([log, checkpoints, definitions]) };
  }
  const db = openDatabase(join(dataDir, DATABASE_FILE), { nativeBinding: options.nativeBinding });
  if (s.fsync) db.pragma('synchronous = FULL');
  const writer = new SqliteWriter(db, { onError: options.onWriteError, nativeBinding: options.nativeBinding });
  const log = s.logDir ? jsonl(s.logDir) : new SqliteExecutionLog(writer, s.retention);
  const checkpoints = s.checkpointDir ? files(s.checkpointDir) : new SqliteCheckpointStore(writer);
  const definitions = new SqliteDefinitionStore(db);
  const close = closeAll([log, checkpoints, definitions], () => {
    try {
      writer.close();
    } finally {
      db.close();
    }
  });
  return { kind: 'sqlite', definitions, log, checkpoints, close };
}

/**
 * Opens the stores of any kind: `postgres` connects to its server and migrates it (DUR-04); the others open
 * at once (`openStores`).
 */
export async function openDurableStores(options: OpenStoresOptions): Promise<DurableStores> {
  if (options.kind !== 'postgres') return openStores(options);
  const s = options.settings ?? {};
  if (!s.postgres?.url) throw new Error('the postgres store needs yukta.postgres.url (the database URL, or decrypted:<secret name>)');
  const { jsonl, files } = localStores(options);
  const { logDir, checkpointDir } = s;
  return openPostgresStores(s.postgres, options, {
    ...(logDir ? { jsonl: () => jsonl(logDir) } : {}),
    ...(checkpointDir ? { files: () => files(checkpointDir) } : {}),
  });
}

/** The JSONL log and file checkpoints in a folder, as `yukta.execution-log.dir` and `yukta.restart.dir` ask. */
function localStores(options: OpenStoresOptions) {
  const s = options.settings ?? {};
  return {
    jsonl: (dir: string) => JsonlExecutionLog.openSync({ dir, fsync: s.fsync, ...s.retention, warn: options.warn, onWriteError: options.onWriteError }),
    files: (dir: string) => new FileCheckpointStore({ dir, onWriteError: options.onWriteError }),
  };
}

function caps(s: DurabilitySettings): { maxMessagesPerNode?: number; maxBytesPerNode?: number } {
  const out: { maxMessagesPerNode?: number; maxBytesPerNode?: number } = {};
  if (s.maxMessagesPerNode !== undefined) out.maxMessagesPerNode = s.maxMessagesPerNode;
  if (s.maxBytesPerNode !== undefined) out.maxBytesPerNode = s.maxBytesPerNode;
  return out;
}

function closeAll(stores: Array<{ close(): Promise<void> }>, last?: () => void): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () =>
    (closing ??= (async () => {
      try {
        for (const store of stores) await store.close().catch(() => undefined);
      } finally {
        last?.();
      }
    })());
}
