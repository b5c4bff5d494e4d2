import { describe, expect, it } from 'vitest';
import { MemoryCheckpointStore, OTHER_PAYLOAD_BYTES, payloadBytes } from './memory-checkpoint-store';

const msg = (payload: unknown) => ({ port: 'out', payload, metadata: {} });

describe('CTL-04 checkpoint caps (memory store)', () => {
  it('counts strings by length, byte arrays by size, other payloads 1 KiB', () => {
    expect(payloadBytes('abcd')).toBe(4);
    expect(payloadBytes(new Uint8Array(10))).toBe(10);
    expect(payloadBytes({ a: 1 })).toBe(OTHER_PAYLOAD_BYTES);
  });

  it('stops recording a node past its message cap, keeps none of it, and says why; the end marker stays', async () => {
    const store = new MemoryCheckpointStore({ maxMessagesPerNode: 2, maxBytesPerNode: 1_000_000 });
    const writer = store.writer('r', 'n');
    writer.append(msg(1));
    writer.append(msg(2));
    expect(writer.full).toBe(false);
    writer.append(msg(3));
    expect(writer.full).toBe(true);
    writer.markDone('SUCCESS');
    expect(await store.read('r', 'n')).toEqual({ messages: [], end: 'SUCCESS', overCap: 'more than 2 messages' });
  });

  it('stops past the byte cap; drop forgets a run', async () => {
    const store = new MemoryCheckpointStore({ maxMessagesPerNode: 100, maxBytesPerNode: 5 });
    store.append('r', 'n', msg('abc'));
    expect((await store.read('r', 'n'))!.messages).toHaveLength(1);
    store.append('r', 'n', msg('abc'));
    expect((await store.read('r', 'n'))!.overCap).toBe('more than 5 bytes');
    store.drop('r');
    expect(await store.read('r', 'n')).toBeNull();
  });
});

describe('DUR-02 memory store spill folder', () => {
  it('moves a node past its cap to the spill folder and keeps recording there; a drop and a restart empty it', async () => {
    const { mkdtemp, readdir, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const spillDir = await mkdtemp(join(tmpdir(), 'yukta-spill-'));
    await writeFile(join(spillDir, 'leftover'), 'from an earlier process');
    const store = new MemoryCheckpointStore({ maxMessagesPerNode: 2, maxBytesPerNode: 1_000_000, spillDir });
    expect(await readdir(spillDir)).toEqual([]);
    const writer = store.writer('r', 'n');
    for (let i = 0; i < 5; i++) writer.append(msg({ i }));
    writer.markDone('SUCCESS');
    expect(writer.full).toBe(false);
    expect(await store.read('r', 'n')).toEqual({ messages: [0, 1, 2, 3, 4].map((i) => msg({ i })), end: 'SUCCESS', overCap: null });
    expect(await readdir(spillDir)).toEqual(['r']);
    store.drop('r');
    expect(await readdir(spillDir)).toEqual([]);
  });
});
