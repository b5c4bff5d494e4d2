import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { definitionStoreContract } from './definition-store.contract';
import { FileDefinitionStore } from './file/file-definition-store';
import { MemoryDefinitionStore } from './memory/memory-definition-store';
import { SqliteDefinitionStore } from './sqlite/sqlite-definition-store';

const tempDir = () => mkdtemp(join(tmpdir(), 'yukta-defs-'));

definitionStoreContract('memory', async () => new MemoryDefinitionStore());
definitionStoreContract('file', async () => new FileDefinitionStore(await tempDir()));
definitionStoreContract('sqlite', async () => SqliteDefinitionStore.open(join(await tempDir(), 'yukta.db')));
