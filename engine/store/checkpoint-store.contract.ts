import { afterEach, describe, expect, it } from 'vitest';
import { signalNodeId, type CheckpointStore, type RecordedMessage } from './checkpoint-store';

/** One storage place (a folder, a database file) a checkpoint store can be opened on, again and again. */
export interface CheckpointStorage {
  open(): Promise<CheckpointStore>;
  /** False for the memory store: nothing survives reopening. */
  readonly durable: boolean;
}

const msg = (payload: unknown, port = 'out', metadata: Record<string, string> = {}): RecordedMessage => ({ port, payload, metadata });

/** The one contract every CheckpointStore implementation passes (DUR-02, CTL-04, CTL-05). */
export function checkpointStoreContract(name: string, makeStorage: () => Promise<CheckpointStorage>): void {
  const opened: CheckpointStore[] = [];
  const open = async (storage: CheckpointStorage): Promise<CheckpointStore> => {
    const store = await storage.open();
    opened.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close().catch(() => undefined)));
  });

  describe(`DUR-02 checkpoint store contract: ${name}`, () => {
    it('records a node’s messages in order with port, payload and metadata, then its end marker', async () => {
      const store = await open(await makeStorage());
      const writer = store.writer('r', 'a');
      writer.append(msg({ n: 1 }));
      writer.append(msg('two', 'error', { k: 'v' }));
      writer.append(msg([1, null, { deep: true }]));
      expect(writer.full).toBe(false);
      expect(await store.read('r', 'a')).toEqual({
        messages: [msg({ n: 1 }), msg('two', 'error', { k: 'v' }), msg([1, null, { deep: true }])],
        end: null,
        overCap: null,
      });
      writer.markDone('SUCCESS');
      expect((await store.read('r', 'a'))?.end).toBe('SUCCESS');
      expect(await store.read('r', 'b')).toBeNull();
      expect(await store.read('other', 'a')).toBeNull();
    });

    it('keeps an end marker of a node that emitted nothing', async () => {
      const store = await open(await makeStorage());
      store.writer('r', 'quiet').markDone('SUCCESS');
      store.markDone('r', 'failed', 'FAILURE');
      expect(await store.read('r', 'quiet')).toEqual({ messages: [], end: 'SUCCESS', overCap: null });
      expect((await store.read('r', 'failed'))?.end).toBe('FAILURE');
    });

    it('records signal answers under signal:<node> keyed by message id', async () => {
      const store = await open(await makeStorage());
      store.append('r', signalNodeId('w'), { port: 'signal', payload: { decision: 'APPROVED' }, metadata: {}, messageId: 't#1' });
      store.append('r', signalNodeId('w'), { port: 'signal', payload: { decision: 'REJECTED' }, metadata: {}, messageId: 't#2' });
      const read = await store.read('r', 'signal:w');
      expect(read?.messages.map((m) => [m.messageId, (m.payload as { decision: string }).decision])).toEqual([
        ['t#1', 'APPROVED'],
        ['t#2', 'REJECTED'],
      ]);
    });

    it('lists the runs with checkpoints and drops one run entirely', async () => {
      const store = await open(await makeStorage());
      store.writer('r1', 'a').append(msg(1));
      store.writer('r2', 'a').markDone('SUCCESS');
      expect((await store.executions()).sort()).toEqual(['r1', 'r2']);
      store.drop('r1');
      expect(await store.read('r1', 'a')).toBeNull();
      expect(await store.executions()).toEqual(['r2']);
      await store.flush();
      expect(await store.executions()).toEqual(['r2']);
    });

    it('OBS-04 stats().bytes is a gauge of the bytes held: down when a run is dropped, the same right after reopening', async () => {
      const storage = await makeStorage();
      const first = await open(storage);
      first.writer('r1', 'a').append(msg('x'.repeat(5000)));
      first.writer('r2', 'a').append(msg('y'.repeat(3000)));
      await first.flush();
      const both = first.stats().bytes;
      expect(both).toBeGreaterThanOrEqual(8000);
      first.drop('r1');
      await first.flush();
      const one = first.stats().bytes;
      expect(one).toBeGreaterThanOrEqual(3000);
      expect(one).toBeLessThanOrEqual(both - 5000);
      await first.close();
      const again = await open(storage);
      expect(again.stats().bytes).toBe(storage.durable ? one : 0);
      again.drop('r2');
      await again.flush();
      expect(again.stats().bytes).toBe(0);
    });

    it('flush resolves once durable; a durable store finds messages and end markers after reopening', async () => {
      const storage = await makeStorage();
      const first = await open(storage);
      const w = first.writer('r', 'a');
      for (let i = 0; i < 300; i++) w.append(msg({ i, text: 'x'.repeat(i % 7) }));
      w.markDone('SUCCESS');
      first.writer('r', 'b').append(msg('partial'));
      await first.flush();
      expect(first.stats().bytes).toBeGreaterThan(0);
      await first.close();
      const again = await open(storage);
      if (!storage.durable) return expect(await again.read('r', 'a')).toBeNull();
      const a = (await again.read('r', 'a'))!;
      expect(a.end).toBe('SUCCESS');
      expect(a.messages).toHaveLength(300);
      expect(a.messages[299]).toEqual(msg({ i: 299, text: 'x'.repeat(299 % 7) }));
      expect(await again.read('r', 'b')).toEqual({ messages: [msg('partial')], end: null, overCap: null });
      again.append('r', 'signal:b', { port: 'signal', payload: 1, metadata: {}, messageId: 'm' });
      expect((await again.read('r', 'signal:b'))?.messages).toHaveLength(1);
    });
  });
}
