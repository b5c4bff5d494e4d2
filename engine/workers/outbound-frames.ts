import { MAX_BATCH } from '../../shared/workers/worker-protocol';

/**
 * Batches the messages one side sends in a turn of the event loop into one WebSocket frame (a JSON array),
 * so an attempt's START, INPUT and COMPLETE, or a plugin's outputs and the COMPLETE after them, cross as one
 * write. A frame never passes `maxFrameBytes` or MAX_BATCH messages: a full batch is written at once.
 */
export class OutboundFrames {
  private queue: string[] = [];
  private bytes = 2;
  private scheduled = false;
  private closed = false;

  constructor(
    private readonly write: (frame: string) => void,
    private readonly maxFrameBytes: number,
  ) {}

  /** Queues one message; it is written at the end of this turn, or now when the batch is full. */
  push(message: object): void {
    if (this.closed) return;
    const text = JSON.stringify(message);
    const size = Buffer.byteLength(text) + 1;
    if (this.queue.length > 0 && (this.bytes + size > this.maxFrameBytes || this.queue.length >= MAX_BATCH)) this.flush();
    this.queue.push(text);
    this.bytes += size;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes what is queued as one frame. */
  flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0 || this.closed) return;
    const frame = `[${this.queue.join(',')}]`;
    this.queue = [];
    this.bytes = 2;
    this.write(frame);
  }

  /** Drops what is queued and writes nothing more (the connection is gone). */
  close(): void {
    this.closed = true;
    this.queue = [];
  }
}
