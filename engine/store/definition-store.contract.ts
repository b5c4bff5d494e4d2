import { afterEach, describe, expect, it } from 'vitest';
import { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import { contentHash } from '../definitions/content-hash';
import type { DefinitionStore, SaveOptions } from './definition-store';

const def = (workflowId: string, description = '') =>
  WorkflowDefinition.parse({ workflowId, description, nodes: [{ nodeId: 'a', type: 'API_TRIGGER' }], edges: [] });

const opts = (d: WorkflowDefinition, savedAt: number, extra: Partial<SaveOptions> = {}): SaveOptions => ({ version: contentHash(d), savedAt, ...extra });

const settings = (seconds: number) => ({ defaultExecutionTimeoutSeconds: seconds });

/** The one contract every DefinitionStore implementation passes (DEF-01, DUR-05). */
export function definitionStoreContract(name: string, create: () => Promise<DefinitionStore>): void {
  const open: DefinitionStore[] = [];
  const fresh = async (): Promise<DefinitionStore> => {
    const store = await create();
    open.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  describe(`DEF-01 definition store contract: ${name}`, () => {
    it('saves and reads back a definition with its version and note', async () => {
      const store = await fresh();
      const d = def('w1', 'first');
      expect(await store.save('s', d, opts(d, 5, { note: 'initial' }))).toEqual({ changed: true });
      expect(await store.get('s', 'w1')).toEqual({ session: 's', definition: d, version: contentHash(d), savedAt: 5, note: 'initial' });
    });

    it('adds no version for an identical save', async () => {
      const store = await fresh();
      const d = def('w1');
      await store.save('s', d, opts(d, 1));
      expect(await store.save('s', d, opts(d, 2, { note: 'again' }))).toEqual({ changed: false });
      expect((await store.get('s', 'w1'))?.savedAt).toBe(1);
      expect(await store.versions('s', 'w1')).toEqual([{ version: contentHash(d), savedAt: 1 }]);
    });

    it('replaces the current definition on a changed save', async () => {
      const store = await fresh();
      const [a, b] = [def('w1', 'a'), def('w1', 'b')];
      await store.save('s', a, opts(a, 1));
      await store.save('s', b, opts(b, 2));
      expect((await store.get('s', 'w1'))?.definition.description).toBe('b');
    });

    it('lists versions newest first with time and note, and reads any of them', async () => {
      const store = await fresh();
      const [a, b, c] = [def('w', 'a'), def('w', 'b'), def('w', 'c')];
      await store.save('s', a, opts(a, 1, { note: 'one' }));
      await store.save('s', b, opts(b, 1));
      await store.save('s', c, opts(c, 3, { note: 'three' }));
      expect(await store.versions('s', 'w')).toEqual([
        { version: contentHash(c), savedAt: 3, note: 'three' },
        { version: contentHash(b), savedAt: 1 },
        { version: contentHash(a), savedAt: 1, note: 'one' },
      ]);
      expect(await store.getVersion('s', 'w', contentHash(a))).toEqual({ session: 's', definition: a, version: contentHash(a), savedAt: 1, note: 'one' });
      expect(await store.getVersion('s', 'w', contentHash(def('w', 'never')))).toBeNull();
      expect(await store.getVersion('s', 'w', '../../current')).toBeNull();
      expect(await store.versions('s', 'nope')).toEqual([]);
    });

    it('stamps older content anew when it is saved again (each content once in history)', async () => {
      const store = await fresh();
      const [a, b] = [def('w', 'a'), def('w', 'b')];
      await store.save('s', a, opts(a, 1, { note: 'first' }));
      await store.save('s', b, opts(b, 2));
      expect(await store.save('s', a, opts(a, 3, { note: 'back' }))).toEqual({ changed: true });
      expect((await store.get('s', 'w'))?.version).toBe(contentHash(a));
      expect(await store.versions('s', 'w')).toEqual([
        { version: contentHash(a), savedAt: 3, note: 'back' },
        { version: contentHash(b), savedAt: 2 },
      ]);
    });

    it('keeps only the newest maxVersions versions', async () => {
      const store = await fresh();
      const all = [1, 2, 3, 4, 5].map((i) => def('w', `v${i}`));
      for (const [i, d] of all.entries()) await store.save('s', d, opts(d, i, { maxVersions: 3 }));
      expect((await store.versions('s', 'w')).map((v) => v.version)).toEqual(
        all
          .slice(2)
          .reverse()
          .map((d) => contentHash(d)),
      );
      expect(await store.getVersion('s', 'w', contentHash(all[0]!))).toBeNull();
      expect((await store.get('s', 'w'))?.definition.description).toBe('v5');
    });

    it('keeps both versions of two concurrent saves; the later call wins', async () => {
      const store = await fresh();
      const drafts = Array.from({ length: 8 }, (_, i) => def('w', `window ${i}`));
      // One instant for all: the order must come from the call order, not from the clock.
      await Promise.all(drafts.map((d) => store.save('s', d, opts(d, 100))));
      expect((await store.get('s', 'w'))?.definition.description).toBe('window 7');
      expect((await store.versions('s', 'w')).map((v) => v.version)).toEqual(drafts.map((d) => contentHash(d)).reverse());
      for (const d of drafts) expect((await store.getVersion('s', 'w', contentHash(d)))?.definition).toEqual(d);
    });

    it('keeps sessions apart and lists by session', async () => {
      const store = await fresh();
      for (const [s, w] of [
        ['s1', 'x'],
        ['s1', 'y'],
        ['s2', 'x'],
      ] as const) {
        const d = def(w, s);
        await store.save(s, d, opts(d, 1));
      }
      expect((await store.list('s1')).map((w) => w.definition.workflowId).sort()).toEqual(['x', 'y']);
      expect((await store.list()).length).toBe(3);
      expect((await store.get('s2', 'x'))?.definition.description).toBe('s2');
      expect(await store.get('s2', 'y')).toBeNull();
    });

    it('stores ids that need encoding', async () => {
      const store = await fresh();
      for (const id of ['order flow: ünïcödé?', 'a.', '.hidden', 'CON', '@session.json']) {
        const d = def(id);
        await store.save('team a', d, opts(d, 1));
        expect((await store.get('team a', id))?.definition.workflowId).toBe(id);
      }
      expect((await store.list('team a')).length).toBe(5);
      expect((await store.getSession('team a'))?.workflowCount).toBe(5);
    });

    it('returns copies: changing a read value does not change the store', async () => {
      const store = await fresh();
      const d = def('w1', 'kept');
      await store.save('s', d, opts(d, 1));
      const read = await store.get('s', 'w1');
      read!.definition.description = 'changed';
      expect((await store.get('s', 'w1'))?.definition.description).toBe('kept');
    });

    it('deletes a workflow with its history, leaving the others', async () => {
      const store = await fresh();
      const [a, b, other] = [def('w', 'a'), def('w', 'b'), def('other')];
      for (const d of [a, b, other]) await store.save('s', d, opts(d, 1));
      expect(await store.deleteWorkflow('s', 'w')).toBe(true);
      expect(await store.get('s', 'w')).toBeNull();
      expect(await store.versions('s', 'w')).toEqual([]);
      expect(await store.getVersion('s', 'w', contentHash(a))).toBeNull();
      expect(await store.deleteWorkflow('s', 'w')).toBe(false);
      expect((await store.list()).map((w) => w.definition.workflowId)).toEqual(['other']);
      await store.save('s', a, opts(a, 5));
      expect(await store.versions('s', 'w')).toEqual([{ version: contentHash(a), savedAt: 5 }]);
    });
  });

  describe(`DUR-05 session store contract: ${name}`, () => {
    it('knows a session by its settings or by its workflows', async () => {
      const store = await fresh();
      expect(await store.listSessions()).toEqual([]);
      const d = def('w');
      await store.save('implicit', d, opts(d, 1));
      await store.putSession('empty', settings(60));
      expect(await store.listSessions()).toEqual([
        { session: 'empty', workflowCount: 0, settings: settings(60) },
        { session: 'implicit', workflowCount: 1, settings: null },
      ]);
      await store.putSession('empty', settings(90));
      expect(await store.getSession('empty')).toEqual({ session: 'empty', workflowCount: 0, settings: settings(90) });
      expect(await store.getSession('nope')).toBeNull();
      await store.deleteWorkflow('implicit', 'w');
      expect(await store.getSession('implicit')).toBeNull();
    });

    it('renames a session with its settings, workflows and history', async () => {
      const store = await fresh();
      const [a, b] = [def('w', 'a'), def('w', 'b')];
      await store.save('old name', a, opts(a, 1));
      await store.save('old name', b, opts(b, 2));
      await store.putSession('old name', settings(30));
      await store.putSession('taken', settings(30));
      expect(await store.renameSession('old name', 'taken')).toBe('exists');
      expect(await store.renameSession('missing', 'new')).toBe('not-found');
      expect(await store.renameSession('old name', 'new: name')).toBe('renamed');
      expect(await store.getSession('old name')).toBeNull();
      expect(await store.get('old name', 'w')).toBeNull();
      expect(await store.getSession('new: name')).toEqual({ session: 'new: name', workflowCount: 1, settings: settings(30) });
      expect(await store.get('new: name', 'w')).toMatchObject({ session: 'new: name', version: contentHash(b) });
      expect((await store.versions('new: name', 'w')).length).toBe(2);
      expect((await store.getVersion('new: name', 'w', contentHash(a)))?.session).toBe('new: name');
    });

    it('deletes a session with its workflows, leaving the others', async () => {
      const store = await fresh();
      const d = def('w');
      await store.save('gone', d, opts(d, 1));
      await store.putSession('gone', settings(10));
      await store.save('kept', d, opts(d, 1));
      expect(await store.deleteSession('gone')).toBe(true);
      expect(await store.deleteSession('gone')).toBe(false);
      expect(await store.get('gone', 'w')).toBeNull();
      expect(await store.getVersion('gone', 'w', contentHash(d))).toBeNull();
      expect((await store.listSessions()).map((s) => s.session)).toEqual(['kept']);
      await store.save('gone', d, opts(d, 2));
      expect(await store.versions('gone', 'w')).toEqual([{ version: contentHash(d), savedAt: 2 }]);
    });

    it('applies a configuration: settings and every workflow, with a result per workflow', async () => {
      const store = await fresh();
      const [x, y] = [def('x'), def('y')];
      await store.save('team', x, opts(x, 1));
      const results = await store.applySession('team', settings(120), [
        { definition: x, options: opts(x, 2, { note: 'config' }) },
        { definition: y, options: opts(y, 2, { note: 'config' }) },
      ]);
      expect(results).toEqual([{ changed: false }, { changed: true }]);
      expect(await store.getSession('team')).toEqual({ session: 'team', workflowCount: 2, settings: settings(120) });
      expect(await store.get('team', 'y')).toMatchObject({ savedAt: 2, note: 'config' });
    });
  });
}
