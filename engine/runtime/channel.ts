/** Returned by `take` when every producer is done and the buffer is empty, or the channel was cancelled. */
export const END: unique symbol = Symbol('channel-end');
/** Returned by `tryTake` when nothing is buffered right now. */
export const EMPTY: unique symbol = Symbol('channel-empty');

/**
 * A bounded FIFO channel with any number of producers and one consumer (ENG-01).
 * A producer that finds it full awaits space: that await is the back-pressure. Items are passed by
 * reference. Order is FIFO across all producers, hence FIFO per producer.
 */
export class Channel<T> {
  private readonly buffer: Array<T | undefined>;
  private head = 0;
  private size = 0;
  private openProducers: number;
  private cancelled = false;
  private waitingTaker: ((value: T | typeof END) => void) | null = null;
  private readonly waitingSenders: Array<() => void> = [];

  constructor(
    readonly capacity: number,
    producers: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`channel capacity must be a positive integer, got ${capacity}`);
    this.buffer = new Array<T | undefined>(capacity);
    this.openProducers = producers;
  }

  /** Items buffered now (for counting in-flight messages). */
  get length(): number {
    return this.size;
  }

  get isCancelled(): boolean {
    return this.cancelled;
  }

  /** Puts an item if it fits without waiting. Returns false when full (or cancelled: the item is dropped). */
  offer(item: T): boolean {
    if (this.cancelled) return true;
    const taker = this.waitingTaker;
    if (taker !== null) {
      this.waitingTaker = null;
      taker(item);
      return true;
    }
    if (this.size === this.capacity) return false;
    this.buffer[(this.head + this.size) % this.capacity] = item;
    this.size++;
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
    if (this.size > 0) {
      const item = this.buffer[this.head] as T;
      this.buffer[this.head] = undefined;
      this.head = (this.head + 1) % this.capacity;
      this.size--;
      const sender = this.waitingSenders.shift();
      if (sender) sender();
      return item;
    }
    if (this.cancelled || this.openProducers <= 0) return END;
    return EMPTY;
  }

  /** Takes the next item, waiting for one; END once the producers are done and the buffer drained. */
  take(): T | typeof END | Promise<T | typeof END> {
    const item = this.tryTake();
    if (item !== EMPTY) return item;
    if (this.waitingTaker !== null) throw new Error('a channel has exactly one consumer');
    return new Promise((resolve) => {
      this.waitingTaker = resolve;
    });
  }

  /** One producer has finished; the consumer sees END after the last producer and the last item. */
  producerDone(): void {
    this.openProducers--;
    if (this.openProducers <= 0 && this.size === 0) this.wakeTaker();
  }

  /** Stops the channel at once: buffered items are dropped, waiting senders and the taker are released. */
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.buffer.fill(undefined);
    this.size = 0;
    for (const sender of this.waitingSenders.splice(0)) sender();
    this.wakeTaker();
  }

  private wakeTaker(): void {
    const taker = this.waitingTaker;
    if (taker !== null) {
      this.waitingTaker = null;
      taker(END);
    }
  }
}
