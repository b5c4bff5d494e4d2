import { NodeTimeoutError } from './errors';
import type { NodeTimer, NodeTimers } from './node-timers';

/**
 * The clocks of one node (ENG-05): the idle watchdog, which runs while the node waits for plugin work and
 * is fed by activity and heartbeats; the node's deadline; and freezing while its valve holds (a pause never
 * causes a timeout). A timeout is reported to `timedOut`; the wait in progress is then failed at once.
 */
export class StageClocks {
  private idleTimeoutMs: number;
  private lastActivity = 0;
  private frozenAt = 0;
  private watchdog: NodeTimer | null = null;
  private busy = false;
  private failWait: ((error: unknown) => void) | null = null;

  constructor(
    readonly timers: NodeTimers,
    private readonly nodeId: string,
    idleTimeoutMs: number,
    private readonly timedOut: (error: NodeTimeoutError) => void,
  ) {
    this.idleTimeoutMs = idleTimeoutMs;
  }

  /**
   * Waits for plugin work under the node's clocks: the idle watchdog runs while the node is busy, and a
   * timeout, a stop or an attempt's element timeout rejects the wait at once (the plugin's promise is
   * abandoned; its AbortSignal has fired).
   */
  guard<T>(work: Promise<T>): Promise<T> {
    this.busy = true;
    this.activity();
    if (this.watchdog === null) this.armWatchdog(this.idleTimeoutMs);
    return new Promise<T>((resolve, reject) => {
      this.failWait = reject;
      work.then(
        (value) => {
          this.busy = false;
          this.failWait = null;
          resolve(value);
        },
        (error: unknown) => {
          this.busy = false;
          this.failWait = null;
          reject(error);
        },
      );
    });
  }

  /** Fails the wait in progress (a timeout, a stop that abandons the work, an attempt's element timeout). */
  failCurrentWait(error: unknown): void {
    this.failWait?.(error);
  }

  /** Clocks as at the node's start, for its next run. */
  reset(idleTimeoutMs: number): void {
    this.idleTimeoutMs = idleTimeoutMs;
    this.lastActivity = 0;
    this.frozenAt = 0;
    this.watchdog = null;
    this.busy = false;
    this.failWait = null;
  }

  /** True while plugin work is awaited under the clocks. */
  get waiting(): boolean {
    return this.busy;
  }

  activity(): void {
    this.lastActivity = this.timers.now();
  }

  /** A templated `timeoutSeconds` was rendered at the first message (ENG-05). */
  retime(idleTimeoutMs: number): void {
    this.idleTimeoutMs = idleTimeoutMs;
  }

  /** The node's whole-life deadline (`deadlineMs`), from its first activity. */
  startDeadline(deadlineMs: number): void {
    this.timers.set(() => this.timedOut(new NodeTimeoutError(`node "${this.nodeId}" passed its deadline of ${deadlineMs} ms`, 'DEADLINE')), deadlineMs);
  }

  /** Freezes every clock of the node; the idle clock's reference moves on by the frozen time when it thaws. */
  freeze(): void {
    if (!this.timers.isFrozen) this.frozenAt = this.timers.now();
    this.timers.freeze();
  }

  thaw(): void {
    if (this.timers.isFrozen) this.lastActivity += this.timers.now() - this.frozenAt;
    this.timers.thaw();
  }

  private armWatchdog(delayMs: number): void {
    this.watchdog = this.timers.set(() => {
      this.watchdog = null;
      if (!this.busy) return; // re-armed by the next wait
      const idle = this.timers.now() - this.lastActivity;
      const limit = this.idleTimeoutMs;
      if (idle >= limit) this.timedOut(new NodeTimeoutError(`node "${this.nodeId}" was idle for ${limit} ms (timeout)`, 'IDLE_TIMEOUT'));
      else this.armWatchdog(limit - idle);
    }, delayMs);
  }
}
