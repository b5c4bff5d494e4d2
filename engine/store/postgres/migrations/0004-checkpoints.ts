import type { Migration } from '../../migration';

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
      execution_id text    NOT NULL,
      node_id      text    NOT NULL,
      seq          integer NOT NULL,
      port         text    NOT NULL,
      payload      json,
      metadata     json,
      message_id   text,
      PRIMARY KEY (execution_id, node_id, seq)
    );
    CREATE TABLE checkpoint_nodes (
      execution_id text NOT NULL,
      node_id      text NOT NULL,
      end_status   text,
      PRIMARY KEY (execution_id, node_id)
    );
  `,
};
