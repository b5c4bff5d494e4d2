/**
 * vitest globalSetup (DUR-04): one PostgreSQL server for the whole test run, handed to the test files as
 * `inject('yuktaPostgresUrl')`. `YUKTA_TEST_PG_URL` names an existing server (CI with a service, a
 * developer's own); otherwise a throwaway cluster is started from Debian's binaries and stopped at teardown.
 * With neither, the run fails at once with one line saying what to install: the PostgreSQL tests are
 * never skipped silently.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { POSTGRES_MISSING, startPostgresCluster, type PostgresCluster } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** An administrator's URL of the test server; each test file creates its own database on it. */
    yuktaPostgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.YUKTA_TEST_PG_URL;
  let cluster: PostgresCluster | null = null;
  if (!given) {
    try {
      // The tests never lose power: no fsync keeps the suites quick (the benchmarks start their own, durable, server).
      cluster = await startPostgresCluster({ settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } });
    } catch (error) {
      const message = (error as Error).message;
      throw new Error(message.startsWith(POSTGRES_MISSING) ? message : `${POSTGRES_MISSING} (starting a throwaway server failed: ${message})`, {
        cause: error,
      });
    }
  }
  const url = given ?? cluster!.url;
  await checkReachable(url);
  project.provide('yuktaPostgresUrl', url);
  return async () => {
    await cluster?.stop();
  };
}

async function checkReachable(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new Error(`YUKTA_TEST_PG_URL: cannot reach the PostgreSQL server (${(error as Error).message}); ${POSTGRES_MISSING}`, { cause: error });
  } finally {
    await client.end().catch(() => undefined);
  }
}
