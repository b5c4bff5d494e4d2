import type { Migration } from './migration';

/**
 * The execution log (DUR-01): one row per entry in append order (`seq`, the rowid). `data` is JSON (the
 * start of a run, a node id, an idempotency key, recorded limits). Indexed by run (recovery, trimming) and
 * by type (the control audit).
 */
export const executionLog: Migration = {
  version: 3,
  name: 'execution-log',
  sql: `
    CREATE TABLE execution_log (
      seq     INTEGER PRIMARY KEY,
      run_id  TEXT    NOT NULL,
      type    TEXT    NOT NULL,
      status  TEXT    NOT NULL,
      actor   TEXT    NOT NULL,
      at      REAL    NOT NULL,
      data    TEXT
    );
    CREATE INDEX execution_log_by_run ON execution_log (run_id, seq);
    CREATE INDEX execution_log_by_type ON execution_log (type, seq);
  `,
};
