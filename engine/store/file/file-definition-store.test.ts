import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkflowDefinition } from '../../../shared/workflow/definition.schema';
import { contentHash } from '../../definitions/content-hash';
import { decodeName, encodeName } from './file-names';
import { FileDefinitionStore } from './file-definition-store';

const def = (workflowId: string, description = '') => WorkflowDefinition.parse({ workflowId, description, nodes: [], edges: [] });

async function setup() {
  const dir = await mkdtemp(join(tmpdir(), 'yukta-defs-'));
  return { dir, store: new FileDefinitionStore(dir) };
}

describe('DEF-01 file layout', () => {
  it('writes current.json and history/<version>.json under URL-encoded ids, leaving no temp files', async () => {
    const { dir, store } = await setup();
    const d = def('a b');
    const version = contentHash(d);
    await store.save('s', d, { version, savedAt: 1 });
    const folder = join(dir, 'workflows', 's', 'a%20b');
    expect((await readdir(folder)).sort()).toEqual(['current.json', 'history']);
    expect(await readdir(join(folder, 'history'))).toEqual([`${version}.json`]);
    expect(JSON.parse(await readFile(join(folder, 'current.json'), 'utf8')).version).toBe(version);
  });

  it('deletes the history files retention drops', async () => {
    const { dir, store } = await setup();
    const all = [1, 2, 3].map((i) => def('w', `v${i}`));
    for (const d of all) await store.save('s', d, { version: contentHash(d), savedAt: 1, maxVersions: 2 });
    const files = await readdir(join(dir, 'workflows', 's', 'w', 'history'));
    expect(files.sort()).toEqual([contentHash(all[1]!), contentHash(all[2]!)].map((v) => `${v}.json`).sort());
  });

  it('keeps session settings beside the workflows and renames a session as one folder', async () => {
    const { dir, store } = await setup();
    const d = def('w');
    await store.save('team', d, { version: contentHash(d), savedAt: 1 });
    await store.putSession('team', { defaultExecutionTimeoutSeconds: 60 });
    expect((await readdir(join(dir, 'workflows', 'team'))).sort()).toEqual(['@session.json', 'w']);
    await store.renameSession('team', 'crew');
    expect(await readdir(join(dir, 'workflows'))).toEqual(['crew']);
  });

  it('reads files written before history was ordered (no seq)', async () => {
    const { dir, store } = await setup();
    const d = def('w', 'old');
    const folder = join(dir, 'workflows', 's', 'w');
    await mkdir(join(folder, 'history'), { recursive: true });
    const old = JSON.stringify({ session: 's', definition: d, version: contentHash(d), savedAt: 7 });
    await writeFile(join(folder, 'current.json'), old);
    await writeFile(join(folder, 'history', `${contentHash(d)}.json`), old);
    expect(await store.versions('s', 'w')).toEqual([{ version: contentHash(d), savedAt: 7 }]);
    const next = def('w', 'new');
    await store.save('s', next, { version: contentHash(next), savedAt: 8 });
    expect((await store.versions('s', 'w')).map((v) => v.savedAt)).toEqual([8, 7]);
  });

  it('ignores folders it did not write and refuses a version that is not a hash', async () => {
    const { dir, store } = await setup();
    await mkdir(join(dir, 'workflows', 'not encoded!', 'x y'), { recursive: true });
    await mkdir(join(dir, 'workflows', '@trash-1'), { recursive: true });
    expect(await store.listSessions()).toEqual([]);
    await expect(store.save('s', def('w'), { version: '../x', savedAt: 1 })).rejects.toThrow('not a content hash');
  });
});

describe('DEF-02 identifiers as file names', () => {
  it.each(['.', 'a.', 'con', 'NUL.txt', 'com1', 'a/b', '100%', '@x'])('encodes %j to a safe name and back', (id) => {
    const name = encodeName(id);
    expect(name).not.toMatch(/[/\\]|^\.+$|\.$|^@/);
    expect(name).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i);
    expect(decodeName(name)).toBe(id);
  });
});
