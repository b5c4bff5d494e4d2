import type { ErrorInfo, UnnumberedEvent } from '../../shared/events/events';
import type { SubWorkflowRunner } from '../plugins/contract';
import type { PluginServices } from '../plugins/services';
import type { Message } from './message';
import type { NodeStage } from './node-stage';
import type { Random } from './random';
import type { RunControl, RunRecorder } from './run-hooks';
import type { NodeEnd } from './stage-end';

/** What a stage needs from the run it serves. */
export interface StageRun {
  readonly executionId: string;
  readonly session: string;
  readonly workflowId: string;
  readonly signal: AbortSignal;
  readonly cancelled: boolean;
  readonly random: Random;
  /** Deep-freeze every message so a plugin that mutates its input fails loudly (development and tests). */
  readonly freezeMessages: boolean;
  readonly runWorkflow: SubWorkflowRunner;
  /** Publishes an event (one function per run, shared by its stages' reports). */
  readonly emitter: (event: UnnumberedEvent) => void;
  /** A terminal received a message (OBS-03); the run publishes it and feeds a sub-workflow's collector. */
  result(nodeId: string, message: Message): void;
  /** The stage ended (once): the run ends after its last stage. */
  stageEnded(stage: NodeStage, end: NodeEnd): void;
  /** A plugin threw RunAbortedError: the whole run ends. */
  abortRun(nodeId: string, error: ErrorInfo): void;
  edgeDropped(nodeId: string): void;
  /** Records outputs and end markers for restart (CTL-04); null when the run records nothing. */
  readonly recorder: RunRecorder | null;
  /** Serves `ctx.control` (CTL-05, CTL-08); null when the run has no control plane. */
  readonly control: RunControl | null;
  /** `ctx.services` (SEC-02, SEC-03, EXT-03). */
  readonly services: PluginServices;
}
