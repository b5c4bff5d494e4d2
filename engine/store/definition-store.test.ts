import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closingDatabase, postgresStorages } from '../test-support/postgres-storage';
import { definitionStoreContract } from './definition-store.contract';
import { FileDefinitionStore } from './file/file-definition-store';
import { MemoryDefinitionStore } from './memory/memory-definition-store';
import { PostgresDefinitionStore } from './postgres/postgres-definition-store';
import { SqliteDefinitionStore } from './sqlite/sqlite-definition-store';

const tempDir = () => mkdtemp(join(tmpdir(), 'yukta-defs-'));

definitionStoreContract('memory', async () => new MemoryDefinitionStore());
definitionStoreContract('file', async () => new FileDefinitionStore(await tempDir()));
definitionStoreContract('sqlite', async () => SqliteDefinitionStore.open(join(await tempDir(), 'yukta.db')));

const postgres = postgresStorages();
definitionStoreContract('postgres', async () => {
  const db = await (await postgres()).open();
  return closingDatabase(new PostgresDefinitionStore(db.pool), db);
});
