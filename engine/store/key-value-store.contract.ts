import { describe, expect, it } from 'vitest';
import type { KeyValueStore } from './key-value-store';

/** One storage place a key–value store can be opened on, again and again. */
export interface KeyValueStorage {
  open(): Promise<KeyValueStore & { close?(): Promise<void> }>;
  /** False for the memory store: nothing survives reopening. */
  readonly durable: boolean;
}

/** The one contract every KeyValueStore implementation passes (DUR-04). */
export function keyValueStoreContract(name: string, makeStorage: () => Promise<KeyValueStorage>): void {
  describe(`DUR-04 key–value store contract: ${name}`, () => {
    it('puts, replaces and deletes values per namespace; a namespace never sees another', async () => {
      const store = await (await makeStorage()).open();
      expect(await store.entries('triggers')).toEqual(new Map());
      await store.put('triggers', 'default/hourly/cron', 1_700_000_000_000);
      await store.put('triggers', 'default/daily/cron', 5);
      await store.put('supervisor-rules', 'default/hourly/cron', [{ when: 'true', then: { type: 'PauseWorkflow' } }]);
      await store.put('triggers', 'default/daily/cron', 6);
      expect(await store.entries('triggers')).toEqual(
        new Map<string, unknown>([
          ['default/daily/cron', 6],
          ['default/hourly/cron', 1_700_000_000_000],
        ]),
      );
      await store.delete('triggers', 'default/daily/cron');
      await store.delete('triggers', 'never there');
      expect([...(await store.entries('triggers')).keys()]).toEqual(['default/hourly/cron']);
      expect(await store.entries('supervisor-rules')).toEqual(new Map([['default/hourly/cron', [{ when: 'true', then: { type: 'PauseWorkflow' } }]]]));
      await store.close?.();
    });

    it('keeps any JSON value as written and hands out copies; refuses a value that is not JSON', async () => {
      const store = await (await makeStorage()).open();
      const value = { nested: [1, null, { s: 'ünï \u0000' }], empty: {} };
      await store.put('n', 'k', value);
      const read = (await store.entries('n')).get('k') as typeof value;
      expect(read).toEqual(value);
      read.nested.push(2);
      expect((await store.entries('n')).get('k')).toEqual(value);
      await store.put('n', 'null', null);
      expect((await store.entries('n')).get('null')).toBeNull();
      await expect(store.put('n', 'bad', () => 1)).rejects.toThrow('not JSON');
      await store.close?.();
    });

    it('a durable store finds its values after reopening', async () => {
      const storage = await makeStorage();
      const first = await storage.open();
      await first.put('triggers', 'a', 42);
      await first.close?.();
      const again = await storage.open();
      expect((await again.entries('triggers')).get('a')).toBe(storage.durable ? 42 : undefined);
      await again.close?.();
    });
  });
}
