import type { WireError } from '../../shared/workers/worker-protocol';
import { BadInputError, CancelledError, RunAbortedError } from '../runtime/errors';

/**
 * No connected worker of the pool allows the node's type (SCL-01): the attempt fails at once and may be
 * retried (ENG-04), so the failure policy decides what happens next.
 */
export class WorkerUnavailableError extends Error {
  override readonly name = 'WorkerUnavailableError';
  readonly code = 'NO_WORKER';
}

/** The worker running an attempt was lost (its connection closed or its lease ran out); retryable, on another worker. */
export class WorkerLostError extends Error {
  override readonly name = 'WorkerLostError';
  readonly code = 'WORKER_LOST';
  constructor(
    message: string,
    readonly worker: string,
  ) {
    super(message);
  }
}

/** A worker stopped and its drain timeout ended an attempt it was running; retryable, on another worker. */
export class WorkerDrainingError extends Error {
  override readonly name = 'WorkerDrainingError';
  readonly code = 'WORKER_DRAINING';
}

/** A plugin's error as a worker reported it: the same name and code, so `retryOn`/`noRetryOn` match as they would locally. */
export class RemotePluginError extends Error {
  constructor(
    info: WireError,
    readonly worker: string,
  ) {
    super(info.message);
    this.name = info.name;
    if (info.code !== undefined) (this as { code?: string }).code = info.code;
  }
}

/**
 * The error an attempt fails with on the host for what a worker reported: bad input stays bad input (never
 * retried), a run abort stays one (EXT-03 hardStop), anything else keeps its name and code.
 */
export function errorFromWorker(info: WireError, worker: string): Error {
  if (info.name === 'BadInputError') return new BadInputError(info.message, info.code ?? 'BAD_INPUT');
  if (info.name === 'RunAbortedError') return new RunAbortedError(info.message);
  if (info.name === 'CancelledError') return new CancelledError(info.message);
  return new RemotePluginError(info, worker);
}
