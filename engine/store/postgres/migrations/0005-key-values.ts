import type { Migration } from '../../migration';

/**
 * Small key–value state beside the runs (DUR-04): CRON_TRIGGER's last fire per schedule (namespace
 * `triggers`, `<data>/triggers.json` with the file stores) and the supervisors' rules per session
 * (namespace `supervisor-rules`). One row per key, rewritten whole.
 */
export const keyValues: Migration = {
  version: 5,
  name: 'key-values',
  sql: `
    CREATE TABLE key_values (
      namespace  text             NOT NULL,
      key        text             NOT NULL,
      value      json             NOT NULL,
      updated_at double precision NOT NULL,
      PRIMARY KEY (namespace, key)
    );
  `,
};
