import type { Hello, WireMessage, WorkerToHost } from '../../shared/workers/worker-protocol';
import { OutboundFrames } from './outbound-frames';
import { RemoteAttempt, type AttemptChannel, type AttemptHooks, type AttemptOutcome, type AttemptStart } from './remote-attempt';

/** The messages of an attempt's stream, from the worker. */
export type StreamMessage = Exclude<WorkerToHost, { t: 'HELLO' | 'RENEW' }>;

/** One handler per stream message (a missing one fails to compile); each returns a protocol error, or null. */
const STREAM_HANDLERS: { [K in StreamMessage['t']]: (attempt: RemoteAttempt, message: Extract<StreamMessage, { t: K }>) => string | null } = {
  OUTPUT: (attempt, m) => attempt.output(m.out),
  HEARTBEAT: (attempt) => (attempt.heartbeat(), null),
  LOG: (attempt, m) => (attempt.log(m.level, m.text), null),
  CREDIT: (attempt, m) => (attempt.credit(m.n), null),
  COMPLETE: (attempt) => (attempt.complete(), null),
  ERROR: (attempt, m) => (attempt.failed(m.error), null),
};

/** A connection to one worker as the transport gives it (main/workers implements it over a WebSocket). */
export interface WorkerLink {
  /** Writes one text frame. */
  send(frame: string): void;
  /** Closes the connection with a WebSocket close code and reason. */
  close(code: number, reason: string): void;
  /** Where it connects from (address:port), for the log. */
  readonly peer: string;
}

/** What a registered worker reports to its registry. */
export interface WorkerEvents {
  attemptEnded(worker: ConnectedWorker, attempt: RemoteAttempt, outcome: AttemptOutcome): void;
}

/**
 * A worker that said HELLO and was welcomed (SCL-01): what it offers (pool, allowed types, slots), its lease
 * and draining state, and the attempts it runs now. Its slots are used from START until the worker ends the
 * stream, so a cancelled attempt holds its slot until the worker confirms it stopped.
 */
export class ConnectedWorker implements AttemptChannel {
  readonly name: string;
  readonly pool: string;
  readonly allow: ReadonlySet<string>;
  readonly slots: number;
  readonly version: string;
  /** Inputs the worker takes per stream before it gives credit back. */
  private readonly inputWindow: number;
  readonly connectedAt: number;
  renewedAt: number;
  draining = false;
  /** When it was last given an attempt: ties on free slots go to the one idle longest. */
  lastAssigned = 0;
  private readonly streams = new Map<number, RemoteAttempt>();
  private nextStream = 1;
  private readonly out: OutboundFrames;
  /** Attempts that ended, by outcome (the studio's view; Prometheus has the same per worker). */
  readonly outcomes: Record<AttemptOutcome, number> = { SUCCESS: 0, FAILURE: 0, LOST: 0, CANCELLED: 0 };

  constructor(
    hello: Hello,
    readonly link: WorkerLink,
    private readonly events: WorkerEvents,
    private readonly outputWindow: number,
    maxFrameBytes: number,
    now: number,
  ) {
    this.name = hello.name;
    this.pool = hello.pool;
    this.allow = new Set(hello.allow);
    this.slots = hello.slots;
    this.version = hello.version;
    this.inputWindow = hello.window;
    this.connectedAt = now;
    this.renewedAt = now;
    this.out = new OutboundFrames((frame) => link.send(frame), maxFrameBytes);
  }

  get workerName(): string {
    return this.name;
  }

  /** Slots in use: attempts started and not yet ended by the worker. */
  get used(): number {
    return this.streams.size;
  }

  get free(): number {
    return this.slots - this.streams.size;
  }

  /** Attempts running now, and the most outputs any of them buffers. */
  get attempts(): readonly RemoteAttempt[] {
    return [...this.streams.values()];
  }

  /** Starts an attempt on this worker: a new stream with START, its inputs and COMPLETE. */
  open(start: AttemptStart, inputs: WireMessage[], hooks: AttemptHooks, signal: AbortSignal, now: number): RemoteAttempt {
    const attempt = new RemoteAttempt(this.nextStream++, this, hooks, this.outputWindow, this.inputWindow, now);
    this.streams.set(attempt.id, attempt);
    this.lastAssigned = now;
    attempt.open(start, inputs, signal);
    return attempt;
  }

  push(message: object): void {
    this.out.push(message);
  }

  flush(): void {
    this.out.flush();
  }

  ended(attempt: RemoteAttempt, outcome: AttemptOutcome): void {
    if (!this.streams.delete(attempt.id)) return;
    this.outcomes[outcome]++;
    this.events.attemptEnded(this, attempt, outcome);
  }

  /** Routes a stream message to its attempt; returns a protocol error, or null. */
  receive(message: StreamMessage): string | null {
    const attempt = this.streams.get(message.s);
    // A stream the host no longer knows ended already (its loss was reported); late messages are harmless.
    if (attempt === undefined) return message.s < this.nextStream ? null : `message for stream ${message.s}, which was never started`;
    return (STREAM_HANDLERS[message.t] as (a: RemoteAttempt, m: StreamMessage) => string | null)(attempt, message);
  }

  /** The worker is gone: every attempt it ran fails with the error `lost` makes for it. */
  lose(lost: (attempt: RemoteAttempt) => Error): void {
    this.out.close();
    for (const attempt of [...this.streams.values()]) attempt.lost(lost(attempt));
  }
}
