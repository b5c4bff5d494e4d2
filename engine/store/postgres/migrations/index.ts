import type { Migration } from '../../migration';
import { workflowDefinitions } from './0001-workflow-definitions';
import { sessions } from './0002-sessions';
import { executionLog } from './0003-execution-log';
import { checkpoints } from './0004-checkpoints';
import { keyValues } from './0005-key-values';
import { storeWriters } from './0006-store-writers';
import { leaderLease } from './0007-leader-lease';

/**
 * Every migration of the PostgreSQL database, in order (numbered SQL, one file each, applied at start-up
 * by `migratePostgres`). A new schema change is a new file here, never an edit of an applied one:
 * databases in the field have already run it.
 */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [workflowDefinitions, sessions, executionLog, checkpoints, keyValues, storeWriters, leaderLease];
