import type { Migration } from '../../migration';

/**
 * The execution log (DUR-01): one row per entry in append order (`seq`, an identity: several hosts on one
 * database interleave, each in its own order). It also holds what SQLite keeps there: the control audit
 * (CONTROL_*), idempotency keys (IDEMPOTENCY_KEY, ADM-02), the scheduler's limit changes (run `scheduler`,
 * ADM-03) and the start records the run archive is rebuilt from (RUN_STARTED, CTL-04). `data` is `json`
 * (not `jsonb`: stored as written, and `\u0000` in a string stays storable). Indexed by run (recovery,
 * trimming, one run's entries) and, for the audit, the control rows only.
 */
export const executionLog: Migration = {
  version: 3,
  name: 'execution-log',
  sql: `
    CREATE TABLE execution_log (
      seq    bigint           GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      run_id text             NOT NULL,
      type   text             NOT NULL,
      status text             NOT NULL,
      actor  text             NOT NULL,
      at     double precision NOT NULL,
      data   json
    );
    CREATE INDEX execution_log_by_run ON execution_log (run_id, seq);
    CREATE INDEX execution_log_audit ON execution_log (seq) WHERE type IN ('CONTROL_APPLIED', 'CONTROL_REJECTED');
  `,
};
