import type { Migration } from './migration';

/**
 * Checkpoints (DUR-02): one row per recorded output message, and a state row per node holding the durable
 * end marker (`end_status`, null while the node runs). Signal answers are rows of pseudo node
 * `signal:<node>` with the message id they answer (CTL-05).
 */
export const checkpoints: Migration = {
  version: 4,
  name: 'checkpoints',
  sql: `
    CREATE TABLE checkpoint_messages (
      execution_id TEXT    NOT NULL,
      node_id      TEXT    NOT NULL,
      seq          INTEGER NOT NULL,
      port         TEXT    NOT NULL,
      payload      TEXT,
      metadata     TEXT,
      message_id   TEXT,
      PRIMARY KEY (execution_id, node_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE checkpoint_nodes (
      execution_id TEXT NOT NULL,
      node_id      TEXT NOT NULL,
      end_status   TEXT,
      PRIMARY KEY (execution_id, node_id)
    ) WITHOUT ROWID;
  `,
};
