import type { Migration } from '../../migration';

/**
 * The leader lease of an active/standby pair (SCL-02) and the fencing of run-state writes.
 *
 * `leader_lease` holds one row: the holder, its advertised address, `fence` (grows by one with every change
 * of holder) and `expires_at` (the database's clock). `store_writers.fence` is the fencing number a writer's
 * batch was sent with: every batch of the execution log and checkpoints (audit, idempotency keys, scheduler
 * changes, start records and the archive live in them) stamps its writer's row inside its own statement, and
 * the trigger refuses the stamp — so the whole statement — when that number is no longer the lease's
 * (SQLSTATE YF001). The trigger takes `FOR KEY SHARE` on the lease row: a takeover (`FOR UPDATE`) waits for
 * batches already checked, and a batch checked after it sees the new number. A NULL fence (a host with
 * `yukta.ha.mode=single`) is not checked.
 */
export const leaderLease: Migration = {
  version: 7,
  name: 'leader-lease',
  sql: `
    CREATE TABLE leader_lease (
      name        text        NOT NULL PRIMARY KEY,
      holder      text,
      holder_url  text,
      fence       bigint      NOT NULL,
      acquired_at timestamptz,
      expires_at  timestamptz NOT NULL
    );
    INSERT INTO leader_lease (name, holder, holder_url, fence, expires_at) VALUES ('leader', NULL, NULL, 0, '-infinity');
    ALTER TABLE store_writers ADD COLUMN fence bigint;
    CREATE FUNCTION yukta_check_fence() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      current_fence bigint;
    BEGIN
      SELECT fence INTO current_fence FROM leader_lease WHERE name = 'leader' FOR KEY SHARE;
      IF current_fence IS DISTINCT FROM NEW.fence THEN
        RAISE EXCEPTION 'stale fencing number %: the leader lease is at % (another host leads)', NEW.fence, current_fence USING ERRCODE = 'YF001';
      END IF;
      RETURN NEW;
    END
    $$;
    CREATE TRIGGER store_writers_fence BEFORE UPDATE ON store_writers FOR EACH ROW WHEN (NEW.fence IS NOT NULL) EXECUTE FUNCTION yukta_check_fence();
  `,
};
