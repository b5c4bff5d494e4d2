import type { z } from 'zod';
import type { NodeKind } from '../../shared/workflow/node-type';
import type { Message, OutputMessage } from '../runtime/message';
import type { PluginServices } from './services';

/** Where a plugin's log lines go (EXT-02); lines reach the live logs of the run. */
export interface PluginLogger {
  debug(text: string): void;
  info(text: string): void;
  warn(text: string): void;
  error(text: string): void;
}

/** What a sub-workflow call returns (ENG-07): the child's id and what its terminals received. */
export interface SubWorkflowResult {
  executionId: string;
  results: Array<{ nodeId: string; payload: unknown }>;
}

/** Starts a child run and waits for it; supplied by the engine to plugins that need it. */
export type SubWorkflowRunner = (
  request: { workflowId: string; session?: string; payload: Record<string, unknown> },
  signal: AbortSignal,
) => Promise<SubWorkflowResult>;

/** What the engine hands a plugin with each call (ENG-02). Plugins never see engine options. */
export interface PluginContext {
  readonly executionId: string;
  readonly session: string;
  readonly workflowId: string;
  readonly nodeId: string;
  /** 1, 2, … when the node's policy makes each message an attempt (retry, onError, elementTimeoutMs); else 1. */
  readonly attempt: number;
  /** Fires when the run, the node or this attempt is cancelled or timed out; long work should stop. */
  readonly signal: AbortSignal;
  readonly log: PluginLogger;
  /** Keeps the node's idle clock alive during long silent work. */
  heartbeat(): void;
  /** Waits on the engine's clock (paused with the node, virtual in tests); rejects when `signal` fires. */
  sleep(ms: number): Promise<void>;
  /** Runs another workflow as a child of this run (ENG-07). */
  runWorkflow: SubWorkflowRunner;
  /** Scratch space of this node in this run (plugins are shared by every run, so state goes here). */
  readonly state: Record<string, unknown>;
  /** Signals (CTL-05) and the plugin-level control bus (CTL-08). */
  readonly control: NodeControl;
  /** Variables, secrets, limits and the engine clock (SEC-02, SEC-03, EXT-03). */
  readonly services: PluginServices;
}

/** A signal's answer as a waiting plugin receives it (CTL-05). */
export interface SignalAnswer {
  /** The signal's name (the node's `signal` config). */
  name: string;
  decision: 'APPROVED' | 'REJECTED';
  data?: unknown;
  /** Who answered (`ui:local`, `key:<name>`, `supervisor:<id>`, …). */
  actor: string;
  at: number;
}

/** A plugin-level control message (CTL-08): not a run command, not reviewed, not audited. */
export interface PluginControlMessage {
  kind: string;
  body?: unknown;
}

/** What a plugin reaches of the control plane through `ctx.control`. */
export interface NodeControl {
  /**
   * Waits until this node gets a signal for the message (CTL-05) and returns it; null when `timeoutMs` of
   * the node's clock pass first (paused with the node). Rejects when the node's signal fires. An answer
   * recorded for this message before (a resumed run) is returned at once.
   */
  waitForSignal(request: { signal: string; messageId: string; payload: unknown; timeoutMs: number }): Promise<SignalAnswer | null>;
  /**
   * Handles plugin-level control messages addressed to this workflow and node (CTL-08) until the node
   * ends. The handler's return value is the answer (heartbeat and statistics are built in).
   */
  onControl(handler: (message: PluginControlMessage) => unknown): void;
}

/**
 * What `process` returns: nothing, an array, or a lazy sequence. A synchronous iterable is pulled only
 * as fast as the children take messages (back-pressure without a promise per message); an async iterable
 * for outputs that arrive over time.
 */
export type PluginResult = void | OutputMessage[] | Iterable<OutputMessage> | AsyncIterable<OutputMessage>;

/**
 * A node type (EXT-01). `process` holds business logic only: back-pressure, retries, timeouts, pause/step
 * and failure routing live in the engine's node wrapper. Throw `BadInputError` for bad input. A plugin
 * must not mutate the message it receives: messages are shared by reference between children.
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
  /** Ports named by the config, e.g. ROUTER's `routes[*].port`. */
  readonly outputsFromConfig?: { list: string; key: string };
  /** Declared ports that exist only while `config[flag]` is true (HTTP_REQUEST's status ports). */
  readonly outputsWhen?: { flag: string; ports: readonly string[] };
  /** True for node types that wait for signals (CTL-05): a signal to such a node of a live run is registered. */
  readonly waitsForSignals?: boolean;
  /** True for node types that call back into the engine (sub-workflows): they cannot be placed on a worker (SCL-01). */
  readonly needsEngine?: boolean;
  /** Idle timeout when the node sets no `timeoutSeconds` (ENG-05); 30 s when absent. */
  defaultTimeoutMs?(config: C): number;
  process(message: Message, config: C, ctx: PluginContext): PluginResult | Promise<PluginResult>;
  /** Called once after the last input (e.g. AGGREGATE emits what it collected). */
  finish?(config: C, ctx: PluginContext): PluginResult | Promise<PluginResult>;
}

export function definePlugin<C>(plugin: Plugin<C>): Plugin<C> {
  return plugin;
}

/** Idle timeout of plugins that declare none (ENG-05). */
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
