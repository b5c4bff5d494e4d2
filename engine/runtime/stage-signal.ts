import { CancelledError } from './errors';

/**
 * A node's AbortSignal (ENG-02): made only when a plugin asks for it (most never do, and runs start faster
 * without), fired when the node stops or times out, when its run stops, and once the node has ended.
 */
export class StageSignal {
  private controller: AbortController | null = null;
  private reason: unknown = undefined;
  private run: { readonly signal: AbortSignal } | null = null;

  /** Unfired, for a node of this run. */
  reset(run: { readonly signal: AbortSignal }): void {
    this.run = run;
    this.controller = null;
    this.reason = undefined;
  }

  /** True once a plugin (or the control plane) asked for the signal. */
  get made(): boolean {
    return this.controller !== null;
  }

  get signal(): AbortSignal {
    if (this.controller === null) {
      const controller = (this.controller = new AbortController());
      const runSignal = this.run!.signal;
      if (this.reason !== undefined) controller.abort(this.reason);
      else if (runSignal.aborted) controller.abort(runSignal.reason);
      else runSignal.addEventListener('abort', () => controller.abort(runSignal.reason), { once: true });
    }
    return this.controller.signal;
  }

  /** Fires (once) with this reason: the node stopped or timed out. */
  abort(reason: unknown): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.controller?.abort(reason);
  }

  /** The node ended: work a plugin left running is told to stop; the reason is only built if anyone listens. */
  ended(nodeId: string, status: string): void {
    if (this.controller !== null && !this.controller.signal.aborted) this.abort(new CancelledError(`node "${nodeId}" ended ${status}`));
  }
}
