import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closingDatabase, postgresStorages } from '../test-support/postgres-storage';
import { executionLogContract } from './execution-log.contract';
import { JsonlExecutionLog } from './file/jsonl-execution-log';
import { MemoryExecutionLog } from './memory/memory-execution-log';
import { PostgresExecutionLog } from './postgres/postgres-execution-log';
import { openDatabase } from './sqlite/open-database';
import { SqliteExecutionLog } from './sqlite/sqlite-execution-log';
import { SqliteWriter } from './sqlite/sqlite-writer';

const tempDir = () => mkdtemp(join(tmpdir(), 'yukta-log-'));

executionLogContract('memory', async () => ({ durable: false, open: async (retention) => new MemoryExecutionLog(retention) }));

executionLogContract('jsonl', async () => {
  const dir = await tempDir();
  return { durable: true, open: (retention) => JsonlExecutionLog.open({ dir, ...retention }) };
});

executionLogContract('sqlite', async () => {
  const file = join(await tempDir(), 'yukta.db');
  return {
    durable: true,
    open: async (retention) => {
      const db = openDatabase(file);
      const writer = new SqliteWriter(db);
      const log = new SqliteExecutionLog(writer, retention);
      const close = log.close.bind(log);
      log.close = async () => {
        await close();
        writer.close();
        db.close();
      };
      return log;
    },
  };
});

const postgres = postgresStorages();

executionLogContract('postgres', async () => {
  const storage = await postgres();
  return {
    durable: true,
    open: async (retention) => {
      const db = await storage.open();
      return closingDatabase(new PostgresExecutionLog(db.writer, retention), db);
    },
  };
});
