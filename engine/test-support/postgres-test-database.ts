/**
 * A test file's own database on the test server (DUR-04): created on first use, dropped after the file's
 * tests, so files run in parallel without seeing each other (vitest runs each file with its own modules). Inside it, every storage a test opens is a
 * schema of its own (`freshSchema`), which is cheaper than a database per test.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';

export interface TestDatabase {
  /** The database's URL (the server's administrator). */
  readonly url: string;
  /** A new, empty schema name in it. */
  freshSchema(): Promise<string>;
}

let current: { name: string; database: Promise<TestDatabase> } | null = null;

// Registered when the test file imports this module (its collection), so `testDatabase` may be first called
// anywhere, a test included; a file that never asked for a database drops nothing.
afterAll(async () => {
  if (!current) return;
  const { name, database } = current;
  current = null;
  await database.catch(() => undefined);
  await adminQuery(inject('yuktaPostgresUrl'), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

/** The test file's database (one per file: the first call creates it; it is dropped after the file's tests). */
export function testDatabase(): Promise<TestDatabase> {
  if (current) return current.database;
  const name = `yukta_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = inject('yuktaPostgresUrl');
  const database = (async (): Promise<TestDatabase> => {
    await adminQuery(admin, `CREATE DATABASE ${name}`);
    const url = withDatabase(admin, name);
    let schemas = 0;
    return {
      url,
      async freshSchema() {
        const schema = `s${++schemas}_${randomBytes(3).toString('hex')}`;
        await adminQuery(url, `CREATE SCHEMA ${schema}`);
        return schema;
      },
    };
  })();
  current = { name, database };
  return database;
}

/** The same server and user, another database. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
