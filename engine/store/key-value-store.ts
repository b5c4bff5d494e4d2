/**
 * Small named state beside the runs (DUR-04), one JSON value per key in a namespace: CRON_TRIGGER's last
 * fires (`triggers`), the supervisors' rules per session (`supervisor-rules`). Memory and PostgreSQL
 * implement it and pass one contract suite (`key-value-store.contract.ts`); with the file and SQLite stores
 * the trigger state stays the `<data>/triggers.json` file. A write resolves once stored; values read back
 * are copies.
 */
export interface KeyValueStore {
  /** Every key of a namespace with its value (empty when there is none). */
  entries(namespace: string): Promise<Map<string, unknown>>;
  /** Stores a value (any JSON), replacing the key's previous one. */
  put(namespace: string, key: string, value: unknown): Promise<void>;
  /** Removes a key; nothing happens when it does not exist. */
  delete(namespace: string, key: string): Promise<void>;
}

/** In memory, for the memory store and tests: nothing survives the process. */
export class MemoryKeyValueStore implements KeyValueStore {
  private readonly namespaces = new Map<string, Map<string, string>>();

  async entries(namespace: string): Promise<Map<string, unknown>> {
    const stored = this.namespaces.get(namespace) ?? new Map<string, string>();
    return new Map([...stored].map(([k, v]) => [k, JSON.parse(v) as unknown]));
  }

  async put(namespace: string, key: string, value: unknown): Promise<void> {
    const text = JSON.stringify(value);
    if (text === undefined) throw new Error(`the value of ${namespace}/${key} is not JSON`);
    let stored = this.namespaces.get(namespace);
    if (!stored) this.namespaces.set(namespace, (stored = new Map()));
    stored.set(key, text);
  }

  async delete(namespace: string, key: string): Promise<void> {
    this.namespaces.get(namespace)?.delete(key);
  }
}
