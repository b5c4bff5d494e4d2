import { inMicrotask } from './microtask';

/** Returned by `take` when every producer is done and the buffer is empty, or the channel was cancelled. */
export const END: unique symbol = Symbol('channel-end');
/** Returned by `tryTake` when nothing is buffered right now. */
export const EMPTY: unique symbol = Symbol('channel-empty');

/** What a full channel does with one more item: make the producer wait (default), or drop (ENG-01 edgeBuffer). */
export type Overflow = 'BLOCK' | 'DROP_OLDEST' | 'DROP_NEWEST';

export interface ChannelOptions {
  overflow?: Overflow;
  /** Called once per dropped item (`yukta.edge.dropped`). */
  onDrop?: () => void;
}

/**
 * A bounded FIFO channel with any number of producers and one consumer (ENG-01).
 * A producer that finds it full awaits space: that await is the back-pressure. Items are passed by
 * reference. Order is FIFO across all producers, hence FIFO per producer. With a drop overflow the
 * channel never makes a producer wait; it drops instead and counts the drop.
 */
export class Channel<T> {
  private items: T[] = [];
  private head = 0;
  private openProducers: number;
  private readonly producers: number;
  private cancelled = false;
  private waitingTaker: ((value: T | typeof END) => void) | null = null;
  /** A consumer waiting without a promise (`whenReady`): told, a microtask later, that it can take again. */
  private readyCallback: (() => void) | null = null;
  /** An item handed straight to that consumer (it never took buffer room, as with a waiting `take`). */
  private handoff: T | typeof EMPTY = EMPTY;
  private readonly waitingSenders: Array<() => void> = [];
  private readonly overflow: Overflow;
  private readonly onDrop: (() => void) | undefined;

  constructor(
    readonly capacity: number,
    producers: number,
    options: ChannelOptions = {},
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`channel capacity must be a positive integer, got ${capacity}`);
    this.openProducers = producers;
    this.producers = producers;
    this.overflow = options.overflow ?? 'BLOCK';
    this.onDrop = options.onDrop;
  }

  /** Items buffered now (for counting in-flight messages). */
  get length(): number {
    return this.items.length - this.head;
  }

  get isCancelled(): boolean {
    return this.cancelled;
  }

  /** Puts an item if it fits without waiting. Returns false only when full and blocking. A cancelled channel drops it. */
  offer(item: T): boolean {
    if (this.cancelled) return true;
    const taker = this.waitingTaker;
    if (taker !== null) {
      this.waitingTaker = null;
      taker(item);
      return true;
    }
    const ready = this.readyCallback;
    if (ready !== null) {
      this.readyCallback = null;
      this.handoff = item;
      inMicrotask(ready);
      return true;
    }
    if (this.length >= this.capacity) {
      if (this.overflow === 'BLOCK') return false;
      this.onDrop?.();
      if (this.overflow === 'DROP_NEWEST') return true;
      this.head++; // DROP_OLDEST
    }
    this.items.push(item);
    return true;
  }

  /** Puts an item, waiting while the channel is full. Resolves at once (dropping the item) if cancelled. */
  async send(item: T): Promise<void> {
    while (!this.offer(item)) {
      await new Promise<void>((resolve) => this.waitingSenders.push(resolve));
    }
  }

  /** Takes the next item without waiting. */
  tryTake(): T | typeof EMPTY | typeof END {
    const handed = this.handoff;
    if (handed !== EMPTY) {
      this.handoff = EMPTY;
      return handed;
    }
    if (this.head < this.items.length) {
      const item = this.items[this.head]!;
      this.head++;
      if (this.head === this.items.length) {
        this.items = [];
        this.head = 0;
      } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
      if (this.waitingSenders.length) this.waitingSenders.shift()!();
      return item;
    }
    if (this.cancelled || this.openProducers <= 0) return END;
    return EMPTY;
  }

  /** Takes the next item, waiting for one; END once the producers are done and the buffer drained. */
  take(): T | typeof END | Promise<T | typeof END> {
    const item = this.tryTake();
    if (item !== EMPTY) return item;
    if (this.waitingTaker !== null || this.readyCallback !== null) throw new Error('a channel has exactly one consumer');
    return new Promise((resolve) => {
      this.waitingTaker = resolve;
    });
  }

  /**
   * After `tryTake` found nothing: `ready` is called a microtask after an item arrives or the channel ends,
   * and `tryTake` then answers. The consumer's way of waiting without a promise per message.
   */
  whenReady(ready: () => void): void {
    if (this.waitingTaker !== null || this.readyCallback !== null) throw new Error('a channel has exactly one consumer');
    this.readyCallback = ready;
  }

  /** Empty and open again, for its node's next run (stages are reused across runs of one prepared workflow). */
  reset(): void {
    if (this.items.length > 0) this.items = [];
    this.head = 0;
    this.openProducers = this.producers;
    this.cancelled = false;
    this.waitingTaker = null;
    this.readyCallback = null;
    this.handoff = EMPTY;
    this.waitingSenders.length = 0;
  }

  /** One producer has finished; the consumer sees END after the last producer and the last item. */
  producerDone(): void {
    this.openProducers--;
    if (this.openProducers <= 0 && this.length === 0) this.wakeTaker();
  }

  /** Stops the channel at once: buffered items are dropped, waiting senders and the taker are released. */
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    // A run's end cancels every input, mostly empty ones: no new arrays then.
    if (this.items.length > 0) this.items = [];
    this.head = 0;
    if (this.waitingSenders.length > 0) for (const sender of this.waitingSenders.splice(0)) sender();
    this.wakeTaker();
  }

  private wakeTaker(): void {
    const taker = this.waitingTaker;
    if (taker !== null) {
      this.waitingTaker = null;
      taker(END);
    }
    const ready = this.readyCallback;
    if (ready !== null) {
      this.readyCallback = null;
      inMicrotask(ready);
    }
  }
}
