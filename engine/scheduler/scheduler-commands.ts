import type { SchedulerLimitsPatch } from '../../shared/api/scheduler.schema';

/** The scheduler's commands (CTL-01 names them SetLimits and SetPriority). */
export type SchedulerCommand = { type: 'SetLimits'; limits: SchedulerLimitsPatch } | { type: 'SetPriority'; executionId: string; priority: number };

/**
 * The seam the control plane's command pipeline plugs into (ADM-03): its reviewers may refuse a command
 * before it is applied (throw an engine error, e.g. RefusedError), and its audit records every applied command with the
 * actor. Until that pipeline exists, the engine accepts every command and keeps no audit.
 */
export interface SchedulerCommandGate {
  review(command: SchedulerCommand, actor: string): Promise<void> | void;
  audit(command: SchedulerCommand, actor: string, at: number): void;
}

export const ACCEPT_ALL: SchedulerCommandGate = {
  review: () => undefined,
  audit: () => undefined,
};
