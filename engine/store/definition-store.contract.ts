import { describe, expect, it } from 'vitest';
import { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import { contentHash } from '../definitions/content-hash';
import type { DefinitionStore } from './definition-store';

const def = (workflowId: string, description = '') =>
  WorkflowDefinition.parse({ workflowId, description, nodes: [{ nodeId: 'a', type: 'API_TRIGGER' }], edges: [] });

/** The one contract every DefinitionStore implementation passes (DEF-01). */
export function definitionStoreContract(name: string, create: () => Promise<DefinitionStore>): void {
  describe(`DEF-01 definition store contract: ${name}`, () => {
    it('saves and reads back a definition with its version and note', async () => {
      const store = await create();
      const d = def('w1', 'first');
      expect(await store.save('s', d, { version: contentHash(d), savedAt: 5, note: 'initial' })).toEqual({ changed: true });
      const got = await store.get('s', 'w1');
      expect(got).toEqual({ session: 's', definition: d, version: contentHash(d), savedAt: 5, note: 'initial' });
    });

    it('adds no version for an identical save', async () => {
      const store = await create();
      const d = def('w1');
      await store.save('s', d, { version: contentHash(d), savedAt: 1 });
      expect(await store.save('s', d, { version: contentHash(d), savedAt: 2 })).toEqual({ changed: false });
      expect((await store.get('s', 'w1'))?.savedAt).toBe(1);
    });

    it('replaces the current definition on a changed save', async () => {
      const store = await create();
      const a = def('w1', 'a');
      const b = def('w1', 'b');
      await store.save('s', a, { version: contentHash(a), savedAt: 1 });
      await store.save('s', b, { version: contentHash(b), savedAt: 2 });
      expect((await store.get('s', 'w1'))?.definition.description).toBe('b');
    });

    it('keeps sessions apart and lists by session', async () => {
      const store = await create();
      for (const [s, w] of [['s1', 'x'], ['s1', 'y'], ['s2', 'x']] as const) {
        const d = def(w, s);
        await store.save(s, d, { version: contentHash(d), savedAt: 1 });
      }
      expect((await store.list('s1')).map((w) => w.definition.workflowId).sort()).toEqual(['x', 'y']);
      expect((await store.list()).length).toBe(3);
      expect((await store.get('s2', 'x'))?.definition.description).toBe('s2');
      expect(await store.get('s2', 'y')).toBeNull();
    });

    it('stores ids that need encoding', async () => {
      const store = await create();
      const d = def('order flow: 100% ünïcödé?');
      await store.save('team a', d, { version: contentHash(d), savedAt: 1 });
      expect((await store.get('team a', 'order flow: 100% ünïcödé?'))?.definition.workflowId).toBe('order flow: 100% ünïcödé?');
    });

    it('returns copies: changing a read value does not change the store', async () => {
      const store = await create();
      const d = def('w1', 'kept');
      await store.save('s', d, { version: contentHash(d), savedAt: 1 });
      const read = await store.get('s', 'w1');
      read!.definition.description = 'changed';
      expect((await store.get('s', 'w1'))?.definition.description).toBe('kept');
    });
  });
}
