import type { z } from 'zod';
import type { NodeKind } from '../../shared/workflow/node-type';
import type { Message, OutputMessage } from '../runtime/message';

/** Where a plugin's log lines go (EXT-02); lines reach the live logs of the run. */
export interface PluginLogger {
  debug(text: string): void;
  info(text: string): void;
  warn(text: string): void;
  error(text: string): void;
}

/** What the engine hands a plugin with each call (ENG-02). Plugins never see engine options. */
export interface PluginContext {
  readonly executionId: string;
  readonly session: string;
  readonly workflowId: string;
  readonly nodeId: string;
  /** Fires when the run or node is cancelled; long work should stop. */
  readonly signal: AbortSignal;
  readonly log: PluginLogger;
  /** Keeps the node's idle clock alive during long silent work. */
  heartbeat(): void;
}

export type PluginResult = void | OutputMessage[] | AsyncIterable<OutputMessage>;

/**
 * A node type (EXT-01). `process` holds business logic only: back-pressure, retries, timeouts, pause/step
 * and failure routing live in the engine's node wrapper. Throw `BadInputError` for bad input.
 */
export interface Plugin<C = Record<string, unknown>> {
  readonly type: string;
  readonly kind: NodeKind;
  readonly title: string;
  readonly description: string;
  /** Validates the node's config (drives DEF-02 and the editor's form). `engine` is stripped before parsing. */
  readonly configSchema: z.ZodType<C>;
  /** A config that passes the schema, used when the node is dropped on the canvas. */
  readonly defaultConfig: Record<string, unknown>;
  /** Output ports; terminals declare none. */
  readonly outputs: readonly string[];
  /** Idle timeout when the node sets no `timeoutSeconds` (ENG-05). */
  defaultTimeoutMs?(config: C): number;
  process(message: Message, config: C, ctx: PluginContext): PluginResult | Promise<PluginResult>;
}

/** Erases a plugin's config type for the registry. */
export type AnyPlugin = Plugin<never> | Plugin<Record<string, unknown>>;

export function definePlugin<C>(plugin: Plugin<C>): Plugin<C> {
  return plugin;
}
