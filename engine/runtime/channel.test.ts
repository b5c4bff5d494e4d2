import { describe, expect, it } from 'vitest';
import { Channel, EMPTY, END } from './channel';

async function drain<T>(ch: Channel<T>): Promise<T[]> {
  const out: T[] = [];
  for (;;) {
    const item = await ch.take();
    if (item === END) return out;
    out.push(item);
  }
}

describe('ENG-01 bounded channel', () => {
  it('keeps FIFO order per producer and ends after the last producer', async () => {
    const ch = new Channel<string>(2, 2);
    const p1 = (async () => {
      for (const x of ['a1', 'a2', 'a3']) await ch.send(x);
      ch.producerDone();
    })();
    const p2 = (async () => {
      for (const x of ['b1', 'b2', 'b3']) await ch.send(x);
      ch.producerDone();
    })();
    const got = await drain(ch);
    await Promise.all([p1, p2]);
    expect(got.filter((x) => x.startsWith('a'))).toEqual(['a1', 'a2', 'a3']);
    expect(got.filter((x) => x.startsWith('b'))).toEqual(['b1', 'b2', 'b3']);
  });

  it('makes a producer wait while full (back-pressure) and never buffers beyond capacity', async () => {
    const ch = new Channel<number>(3, 1);
    let sent = 0;
    const producer = (async () => {
      for (let i = 0; i < 100; i++) {
        await ch.send(i);
        sent++;
        expect(ch.length).toBeLessThanOrEqual(3);
      }
      ch.producerDone();
    })();
    // Give the producer every chance to run ahead: it must stop at capacity.
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(sent).toBe(3);
    const got = await drain(ch);
    await producer;
    expect(got).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('hands an item straight to a waiting consumer', async () => {
    const ch = new Channel<number>(1, 1);
    const taken = ch.take();
    expect(ch.offer(7)).toBe(true);
    expect(await taken).toBe(7);
    expect(ch.tryTake()).toBe(EMPTY);
  });

  it('cancel drops buffered items and releases waiting senders and the consumer', async () => {
    const ch = new Channel<number>(1, 1);
    ch.offer(1);
    const blocked = ch.send(2);
    ch.cancel();
    await blocked;
    expect(ch.tryTake()).toBe(END);
  });

  it('refuses a non-positive capacity', () => {
    expect(() => new Channel(0, 1)).toThrow(/capacity/);
  });
});
