/**
 * The PostgreSQL server of the DUR-04 benchmarks: `YUKTA_TEST_PG_URL` when given, else a throwaway cluster
 * of Debian's binaries with the server's default, durable settings (fsync on). Each case gets a schema of
 * its own, dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startPostgresCluster } from '../engine/test-support/postgres-cluster';

export interface BenchServer {
  readonly url: string;
  /** A new empty schema, and its drop. */
  schema(): Promise<{ name: string; drop(): Promise<void> }>;
  stop(): Promise<void>;
}

export async function benchServer(): Promise<BenchServer> {
  const given = process.env.YUKTA_TEST_PG_URL;
  const cluster = given ? null : await startPostgresCluster();
  const url = given ?? cluster!.url;
  const admin = async (sql: string): Promise<void> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  return {
    url,
    async schema() {
      const name = `bench_${randomBytes(4).toString('hex')}`;
      await admin(`CREATE SCHEMA ${name}`);
      return { name, drop: () => admin(`DROP SCHEMA ${name} CASCADE`) };
    },
    stop: async () => cluster?.stop(),
  };
}
