import type { ValidationIssue } from '../shared/workflow/validation-issue';

/**
 * The closed set of engine failures (ARCHITECTURE.md "Engine shape"). The host maps each kind to an API
 * code in one place (`main/host/api-errors.ts`); the engine never throws the transport's error type.
 */
export type EngineErrorKind =
  | 'bad-input'
  | 'payload-too-large'
  | 'validation'
  | 'not-found'
  | 'conflict'
  | 'rate-limited'
  | 'queue-full'
  | 'unavailable'
  | 'refused'
  | 'timeout'
  | 'cancelled'
  | 'run-aborted';

export interface EngineErrorOptions {
  /** The dotted path of the input field at fault, when one is (`payload.yukta.version`, `command.nodeId`). */
  path?: string | undefined;
  cause?: unknown;
}

/**
 * A typed engine failure: a stable `code`, whether trying the same thing again may succeed (`retryable`:
 * a node's retry policy never retries one that says no), the field at fault, and the `cause`.
 */
export abstract class EngineError extends Error {
  abstract readonly kind: EngineErrorKind;
  abstract readonly code: string;
  abstract readonly retryable: boolean;
  readonly path: string | undefined;

  constructor(message: string, options: EngineErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.path = options.path;
  }
}

/** A plugin's or a caller's input is wrong (the analogue of IllegalArgumentException); never retried (ENG-04). */
export class BadInputError extends EngineError {
  override readonly name = 'BadInputError';
  readonly kind = 'bad-input';
  readonly retryable = false;

  constructor(
    message: string,
    readonly code = 'BAD_INPUT',
    path?: string,
  ) {
    super(message, { path });
  }
}

/** A start payload over `yukta.execution.max-message-bytes` (SEC-03). */
export class PayloadTooLargeError extends EngineError {
  override readonly name = 'PayloadTooLargeError';
  readonly kind = 'payload-too-large';
  readonly code = 'PAYLOAD_TOO_LARGE';
  readonly retryable = false;
}

/** A definition that fails DEF-02: `code` is the first error's rule (`DEF-02/cycle`, …), `nodeId` its node. */
export class ValidationError extends EngineError {
  override readonly name = 'ValidationError';
  readonly kind = 'validation';
  readonly code: string;
  readonly nodeId: string | undefined;
  /** A definition can be fixed and saved meanwhile, so trying again may succeed. */
  readonly retryable = true;

  constructor(
    message: string,
    readonly issues: ValidationIssue[],
    path?: string,
  ) {
    super(message, { path });
    const first = issues.find((i) => i.severity === 'error') ?? issues[0];
    this.code = first?.code ?? 'DEF-02/schema';
    this.nodeId = first?.nodeId;
  }
}

/** What was asked for does not exist (a workflow, version, run, node, approval). */
export class NotFoundError extends EngineError {
  override readonly name = 'NotFoundError';
  readonly kind = 'not-found';
  readonly code = 'NOT_FOUND';
  readonly retryable = true;

  constructor(message: string, path?: string) {
    super(message, { path });
  }
}

/** The request does not fit the current state (a run not running, a key used with another payload, a node already ended). */
export class ConflictError extends EngineError {
  override readonly name = 'ConflictError';
  readonly kind = 'conflict';
  readonly code = 'CONFLICT';
  readonly retryable = true;

  constructor(message: string, path?: string) {
    super(message, { path });
  }
}

/** A start refused by a limit (ADM-01); `retryAfterSeconds` says when to try again. */
export abstract class RefusedByLimitError extends EngineError {
  readonly retryable = true;

  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** No slot is free and `yukta.execution.on-limit` is REJECT. */
export class RateLimitedError extends RefusedByLimitError {
  override readonly name = 'RateLimitedError';
  readonly kind = 'rate-limited';
  readonly code = 'RATE_LIMITED';
}

/** No slot is free and the queue (or the workflow's queue) is full. */
export class QueueFullError extends RefusedByLimitError {
  override readonly name = 'QueueFullError';
  readonly kind = 'queue-full';
  readonly code = 'QUEUE_FULL';
}

/** The engine cannot do it now: shutting down, a standby, or a store that cannot write. */
export class UnavailableError extends EngineError {
  override readonly name = 'UnavailableError';
  readonly kind = 'unavailable';
  readonly code = 'UNAVAILABLE';
  readonly retryable = true;
  /** Never a hint here: when it passes is not the engine's to say. */
  readonly retryAfterSeconds: undefined = undefined;
}

/** A reviewer refused a command (CTL-06). */
export class RefusedError extends EngineError {
  override readonly name = 'RefusedError';
  readonly kind = 'refused';
  readonly code = 'FORBIDDEN';
  readonly retryable = false;
}

/** A node or one of its attempts ran out of time (ENG-05); retried under a retry policy. */
export class NodeTimeoutError extends EngineError {
  override readonly name = 'NodeTimeoutError';
  readonly kind = 'timeout';
  readonly retryable = true;

  constructor(
    message: string,
    readonly code: 'ELEMENT_TIMEOUT' | 'IDLE_TIMEOUT' | 'DEADLINE' | 'RUN_DEADLINE',
  ) {
    super(message);
  }
}

/** The run or node was cancelled by a caller or by a failing branch; never retried. */
export class CancelledError extends EngineError {
  override readonly name = 'CancelledError';
  readonly kind = 'cancelled';
  readonly code = 'CANCELLED';
  readonly retryable = false;
}

/** Ends the whole run at once; never retried, dropped or routed (EXT-03 hardStop). */
export class RunAbortedError extends EngineError {
  override readonly name = 'RunAbortedError';
  readonly kind = 'run-aborted';
  readonly code = 'RUN_ABORTED';
  readonly retryable = false;
}
