import type { Migration } from './migration';

/**
 * Workflow definitions and their history (DEF-01). A version row per content hash; `seq` orders the
 * history per workflow (newest = highest) because clocks may repeat a time. `workflows` points at the
 * current version of each workflow.
 */
export const workflowDefinitions: Migration = {
  version: 1,
  name: 'workflow-definitions',
  sql: `
    CREATE TABLE workflow_versions (
      session     TEXT    NOT NULL,
      workflow_id TEXT    NOT NULL,
      version     TEXT    NOT NULL,
      seq         INTEGER NOT NULL,
      saved_at    INTEGER NOT NULL,
      note        TEXT,
      definition  TEXT    NOT NULL,
      PRIMARY KEY (session, workflow_id, version)
    ) WITHOUT ROWID;
    CREATE INDEX workflow_versions_by_seq ON workflow_versions (session, workflow_id, seq DESC);
    CREATE TABLE workflows (
      session     TEXT NOT NULL,
      workflow_id TEXT NOT NULL,
      version     TEXT NOT NULL,
      PRIMARY KEY (session, workflow_id)
    ) WITHOUT ROWID;
  `,
};
