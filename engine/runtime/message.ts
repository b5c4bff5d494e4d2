/**
 * A message flowing along the graph. Passed by reference to every child: plugins must not mutate it.
 */
export interface Message {
  readonly id: string;
  readonly payload: unknown;
  readonly metadata: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string | number>>;
}

/** What a plugin emits: the engine assigns the id and routes by `port` (default `out`). */
export interface OutputMessage {
  payload: unknown;
  metadata?: Record<string, string>;
  port?: string;
}
