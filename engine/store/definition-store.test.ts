import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import { contentHash } from '../definitions/content-hash';
import { definitionStoreContract } from './definition-store.contract';
import { FileDefinitionStore } from './file/file-definition-store';
import { MemoryDefinitionStore } from './memory/memory-definition-store';

definitionStoreContract('memory', async () => new MemoryDefinitionStore());
definitionStoreContract('file', async () => new FileDefinitionStore(await mkdtemp(join(tmpdir(), 'yukta-defs-'))));

describe('DEF-01 file layout', () => {
  it('writes current.json and history/<version>.json under URL-encoded ids, leaving no temp files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'yukta-defs-'));
    const store = new FileDefinitionStore(dir);
    const d = WorkflowDefinition.parse({ workflowId: 'a b', nodes: [], edges: [] });
    const version = contentHash(d);
    await store.save('s', d, { version, savedAt: 1 });
    const folder = join(dir, 'workflows', 's', 'a%20b');
    expect((await readdir(folder)).sort()).toEqual(['current.json', 'history']);
    expect(await readdir(join(folder, 'history'))).toEqual([`${version}.json`]);
    expect(JSON.parse(await readFile(join(folder, 'current.json'), 'utf8')).version).toBe(version);
  });
});
