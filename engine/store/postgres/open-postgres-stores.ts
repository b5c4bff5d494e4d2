import type { DurableStores, OpenStoresOptions } from '../durable-stores';
import { describeUrl, type PostgresConnectionOptions } from './postgres-connection';
import { openPostgresDatabase } from './postgres-database';
import { PostgresCheckpointStore } from './postgres-checkpoint-store';
import { PostgresDefinitionStore } from './postgres-definition-store';
import { PostgresExecutionLog } from './postgres-execution-log';
import { PostgresKeyValueStore } from './postgres-key-value-store';

/**
 * The stores on one PostgreSQL database (DUR-04): definitions and sessions, the execution log (audit,
 * idempotency keys, scheduler changes, start records), checkpoints and key–value state, migrated at open,
 * the log and checkpoints through one writer. `yukta.execution-log.dir` and `yukta.restart.dir` still move
 * the log and the checkpoints to files (`jsonl`, `files`: built by the caller, which owns the data folder).
 */
export async function openPostgresStores(
  connection: PostgresConnectionOptions,
  options: Pick<OpenStoresOptions, 'settings' | 'onWriteError' | 'warn'>,
  local: { jsonl?: () => DurableStores['log']; files?: () => DurableStores['checkpoints'] } = {},
): Promise<DurableStores> {
  const s = options.settings ?? {};
  const db = await openPostgresDatabase({
    ...connection,
    synchronousCommit: connection.synchronousCommit ?? (s.fsync ? 'on' : undefined),
    onWriteError: options.onWriteError,
    onConnectionError: (error) => options.warn?.(`a PostgreSQL connection failed (it is replaced at the next query): ${error.message}`),
  });
  const log = local.jsonl?.() ?? new PostgresExecutionLog(db.writer, s.retention);
  const checkpoints = local.files?.() ?? (await PostgresCheckpointStore.open(db.writer));
  const definitions = new PostgresDefinitionStore(db.pool);
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      try {
        for (const store of [log, checkpoints, definitions]) await store?.close().catch(() => undefined);
      } finally {
        await db.close();
      }
    })());
  const location = `${describeUrl(connection.url)}, schema ${connection.schema ?? 'public'}`;
  return { kind: 'postgres', definitions, log, checkpoints, keyValues: new PostgresKeyValueStore(db.pool), location, close };
}
