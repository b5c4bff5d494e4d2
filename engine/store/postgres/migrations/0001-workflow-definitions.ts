import type { Migration } from '../../migration';

/**
 * Workflow definitions and their history (DEF-01), as in SQLite: a version row per content hash, `seq`
 * ordering a workflow's history (newest = highest), `workflows` pointing at each workflow's current version.
 * `definition` is `json` (kept as written, key order included).
 */
export const workflowDefinitions: Migration = {
  version: 1,
  name: 'workflow-definitions',
  sql: `
    CREATE TABLE workflow_versions (
      session     text             NOT NULL,
      workflow_id text             NOT NULL,
      version     text             NOT NULL,
      seq         bigint           NOT NULL,
      saved_at    double precision NOT NULL,
      note        text,
      definition  json             NOT NULL,
      PRIMARY KEY (session, workflow_id, version)
    );
    CREATE INDEX workflow_versions_by_seq ON workflow_versions (session, workflow_id, seq DESC);
    CREATE TABLE workflows (
      session     text NOT NULL,
      workflow_id text NOT NULL,
      version     text NOT NULL,
      PRIMARY KEY (session, workflow_id)
    );
  `,
};
