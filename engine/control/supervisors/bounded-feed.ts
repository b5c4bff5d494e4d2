/**
 * A bounded buffer between the event bus and one supervisor (CTL-07): `push` never waits (the bus and the
 * tracker are never slowed), a full buffer drops the new event and counts it, and the supervisor reads
 * at its own pace as an async iterable.
 */
export class BoundedFeed<T> implements AsyncIterable<T> {
  private readonly buffer: T[] = [];
  private reader: ((result: IteratorResult<T>) => void) | null = null;
  private closed = false;

  constructor(
    private readonly capacity: number,
    private readonly onDrop: () => void,
  ) {}

  push(item: T): void {
    if (this.closed) return;
    const reader = this.reader;
    if (reader) {
      this.reader = null;
      reader({ value: item, done: false });
    } else if (this.buffer.length >= this.capacity) this.onDrop();
    else this.buffer.push(item);
  }

  close(): void {
    this.closed = true;
    this.buffer.length = 0;
    const reader = this.reader;
    this.reader = null;
    reader?.({ value: undefined, done: true });
  }

  get length(): number {
    return this.buffer.length;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.buffer.length) return Promise.resolve({ value: this.buffer.shift()!, done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.reader = resolve));
      },
      return: () => {
        this.close();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
