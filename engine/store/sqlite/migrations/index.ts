import { workflowDefinitions } from './0001-workflow-definitions';
import { sessions } from './0002-sessions';
import { executionLog } from './0003-execution-log';
import { checkpoints } from './0004-checkpoints';
import type { Migration } from './migration';

export type { Migration } from './migration';

/**
 * Every migration of `<data>/yukta.db`, in order. A new schema change is a new file here, never an edit
 * of an applied one: databases in the field have already run it.
 */
export const MIGRATIONS: readonly Migration[] = [workflowDefinitions, sessions, executionLog, checkpoints];
