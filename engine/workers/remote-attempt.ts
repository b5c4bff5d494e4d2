import type { WireError, WireMessage, WireOutput } from '../../shared/workers/worker-protocol';
import type { OutputMessage } from '../runtime/message';
import { CancelledError } from '../runtime/errors';
import { errorFromWorker } from './worker-errors';

/** How an attempt ended, as counted per worker (`yukta.workers.attempts{outcome}`). */
export type AttemptOutcome = 'SUCCESS' | 'FAILURE' | 'LOST' | 'CANCELLED';

/** What an attempt needs from the worker it runs on. */
export interface AttemptChannel {
  readonly workerName: string;
  push(message: object): void;
  flush(): void;
  /** The attempt's stream ended (COMPLETE, ERROR or loss): its slot is free again. */
  ended(attempt: RemoteAttempt, outcome: AttemptOutcome): void;
}

/** The node's side of an attempt: its idle clock and its log (ENG-05, OBS-02), and where its end is recorded. */
export interface AttemptHooks {
  heartbeat(): void;
  log(level: 'debug' | 'info' | 'warn' | 'error', text: string): void;
  /** The worker ended the stream (or was lost): the error is null on success. */
  ended(outcome: AttemptOutcome, error: Error | null): void;
}

export interface AttemptStart {
  type: string;
  config: Record<string, unknown>;
  executionId: string;
  session: string;
  workflowId: string;
  nodeId: string;
  attempt: number;
}

type Waiter = { resolve: (r: IteratorResult<OutputMessage>) => void; reject: (e: unknown) => void };

/**
 * One attempt on a worker, seen from the host (SCL-01): a stream that sends START, the inputs (within the
 * worker's input credit) and COMPLETE, and reads back outputs as an async iterator the node wrapper pulls as
 * fast as its children take them. At most `window` outputs are ever buffered: each one taken gives the worker
 * credit back. A worker's HEARTBEAT restarts the node's idle clock; its COMPLETE or ERROR ends the stream.
 */
export class RemoteAttempt implements AsyncIterator<OutputMessage>, AsyncIterable<OutputMessage> {
  private readonly buffer: OutputMessage[] = [];
  private unsent: WireMessage[];
  /** The first input of `unsent` not sent yet (an index, so a long stream is not copied at each credit). */
  private nextInput = 0;
  private inputCredit: number;
  private inputsComplete = false;
  private taken = 0;
  /** The stream's end as the reader sees it: completed, or the error it fails with. */
  private end: true | Error | null = null;
  /** The worker ended the stream (its slot is free); after a cancel the reader's end comes first. */
  private closed = false;
  private waiter: Waiter | null = null;
  readonly startedAt: number;
  /** Most outputs buffered at once (for the bounded-memory check of tests and the studio). */
  maxBuffered = 0;
  private signal: AbortSignal | null = null;
  private start: AttemptStart | null = null;
  private readonly onAbort = (): void => this.cancel(reasonText(this.signal?.reason));

  constructor(
    readonly id: number,
    private readonly channel: AttemptChannel,
    private readonly hooks: AttemptHooks,
    private readonly window: number,
    inputCredit: number,
    now: number,
  ) {
    this.inputCredit = inputCredit;
    this.unsent = [];
    this.startedAt = now;
  }

  /**
   * Sends START, the inputs the worker has credit for, and COMPLETE once all are sent. `signal` (the node's or
   * the attempt's) cancels the attempt end to end.
   */
  open(start: AttemptStart, inputs: WireMessage[], signal: AbortSignal): void {
    this.start = start;
    this.signal = signal;
    signal.addEventListener('abort', this.onAbort, { once: true });
    this.channel.push({ t: 'START', s: this.id, ...start });
    this.unsent = inputs;
    this.sendInputs();
    this.channel.flush();
  }

  private sendInputs(): void {
    while (this.nextInput < this.unsent.length && this.inputCredit > 0) {
      this.channel.push({ t: 'INPUT', s: this.id, message: this.unsent[this.nextInput++] });
      this.inputCredit--;
    }
    if (this.nextInput === this.unsent.length && !this.inputsComplete) {
      this.unsent = [];
      this.nextInput = 0;
      this.inputsComplete = true;
      this.channel.push({ t: 'COMPLETE', s: this.id });
    }
  }

  /** `attempt 2 of node "x"`, for errors and logs. */
  describe(): string {
    return this.start ? `attempt ${this.start.attempt} of node "${this.start.nodeId}"` : `stream ${this.id}`;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get buffered(): number {
    return this.buffer.length;
  }

  // --- from the worker: each returns a protocol error, or null -----------------------------------

  output(out: WireOutput): string | null {
    if (this.end !== null) return null; // cancelled: what was already on its way is dropped
    if (this.buffer.length >= this.window) return `stream ${this.id} sent more than its window of ${this.window} outputs`;
    const message: OutputMessage = out.metadata === undefined ? { payload: out.payload } : { payload: out.payload, metadata: out.metadata };
    if (out.port !== undefined) message.port = out.port;
    this.buffer.push(message);
    if (this.buffer.length > this.maxBuffered) this.maxBuffered = this.buffer.length;
    this.wake();
    return null;
  }

  heartbeat(): void {
    if (this.end === null) this.hooks.heartbeat();
  }

  log(level: 'debug' | 'info' | 'warn' | 'error', text: string): void {
    if (this.end === null) this.hooks.log(level, text);
  }

  credit(n: number): void {
    this.inputCredit += n;
    if (this.nextInput < this.unsent.length) {
      this.sendInputs();
      this.channel.flush();
    }
  }

  complete(): void {
    this.finish(true, 'SUCCESS');
  }

  failed(error: WireError): void {
    this.finish(errorFromWorker(error, this.channel.workerName), 'FAILURE');
  }

  /** The worker is gone: the attempt fails with `error` (naming the worker). */
  lost(error: Error): void {
    this.finish(error, 'LOST');
  }

  private finish(end: true | Error, outcome: AttemptOutcome): void {
    if (this.closed) return;
    this.closed = true;
    this.signal?.removeEventListener('abort', this.onAbort);
    const final = this.end !== null && outcome !== 'LOST' ? 'CANCELLED' : outcome;
    this.end ??= end;
    this.channel.ended(this, final);
    this.hooks.ended(final, this.end === true ? null : this.end);
    this.wake();
  }

  // --- the reader (the node wrapper) -------------------------------------------------------------

  /** Stops the attempt: CANCEL crosses to the worker, the reader fails at once; the slot frees when the worker confirms. */
  cancel(reason: string): void {
    if (this.end !== null) return;
    this.end = new CancelledError(reason);
    this.buffer.length = 0;
    if (!this.closed) {
      this.channel.push({ t: 'CANCEL', s: this.id, reason });
      this.channel.flush();
    }
    this.wake();
  }

  next(): Promise<IteratorResult<OutputMessage>> {
    if (this.buffer.length > 0) return Promise.resolve(this.take());
    if (this.end === true) return Promise.resolve({ done: true, value: undefined });
    if (this.end !== null) return Promise.reject(this.end);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  /** The reader stopped early (its node stopped): the attempt is cancelled. */
  return(): Promise<IteratorResult<OutputMessage>> {
    this.cancel('the node stopped reading the attempt');
    return Promise.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): AsyncIterator<OutputMessage> {
    return this;
  }

  private take(): IteratorResult<OutputMessage> {
    const value = this.buffer.shift()!;
    // Credit goes back in batches of half a window, so a fast stream costs one CREDIT per half window.
    if (++this.taken >= Math.ceil(this.window / 2) && !this.closed) {
      this.channel.push({ t: 'CREDIT', s: this.id, n: this.taken });
      this.taken = 0;
    }
    return { done: false, value };
  }

  private wake(): void {
    const waiter = this.waiter;
    if (waiter === null) return;
    if (this.buffer.length > 0) {
      this.waiter = null;
      waiter.resolve(this.take());
    } else if (this.end === true) {
      this.waiter = null;
      waiter.resolve({ done: true, value: undefined });
    } else if (this.end !== null) {
      this.waiter = null;
      waiter.reject(this.end);
    }
  }
}

function reasonText(reason: unknown): string {
  return reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'cancelled';
}
