import type { Migration } from '../../migration';

/** Session settings (DUR-05). A session without a row exists implicitly while it holds workflows. */
export const sessions: Migration = {
  version: 2,
  name: 'sessions',
  sql: `
    CREATE TABLE sessions (
      session                           text    NOT NULL PRIMARY KEY,
      default_execution_timeout_seconds integer NOT NULL
    );
  `,
};
