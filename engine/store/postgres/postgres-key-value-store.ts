import type pg from 'pg';
import type { KeyValueStore } from '../key-value-store';
import { pgText } from './postgres-connection';

/**
 * Key–value state on PostgreSQL (DUR-04): table `key_values`, one row per namespace and key, written at
 * once (not through the batching writer: these writes are few and each is awaited). Several hosts on one
 * database share it; the last write of a key wins.
 */
export class PostgresKeyValueStore implements KeyValueStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => number = Date.now,
  ) {}

  async entries(namespace: string): Promise<Map<string, unknown>> {
    const { rows } = await this.pool.query<{ key: string; value: string }>('SELECT key, value FROM key_values WHERE namespace = $1 ORDER BY key', [
      pgText(namespace),
    ]);
    return new Map(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
  }

  async put(namespace: string, key: string, value: unknown): Promise<void> {
    const text = JSON.stringify(value);
    if (text === undefined) throw new Error(`the value of ${namespace}/${key} is not JSON`);
    await this.pool.query(
      'INSERT INTO key_values (namespace, key, value, updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT (namespace, key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at',
      [pgText(namespace), pgText(key), text, this.now()],
    );
  }

  async delete(namespace: string, key: string): Promise<void> {
    await this.pool.query('DELETE FROM key_values WHERE namespace = $1 AND key = $2', [pgText(namespace), pgText(key)]);
  }
}
