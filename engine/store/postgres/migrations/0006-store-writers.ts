import type { Migration } from '../../migration';

/**
 * One row per open log/checkpoint writer (a host process): the number of its last committed batch, written
 * by the batch's own statement. When the connection drops while a batch commits, the writer reads its row
 * back to learn whether the batch is stored, so a retry never writes it twice.
 */
export const storeWriters: Migration = {
  version: 6,
  name: 'store-writers',
  sql: `
    CREATE TABLE store_writers (
      writer_id  uuid        NOT NULL PRIMARY KEY,
      batch      bigint      NOT NULL,
      opened_at  timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
  `,
};
