import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../store/file/atomic-write';
import type { KeyValueStore } from '../store/key-value-store';

/**
 * Where CRON_TRIGGER remembers, per trigger, the last fire it handled (or when it was first armed), so
 * fires missed while the app was closed can be found at the next start (missed-fire policy).
 */
export interface TriggerStateStore {
  load(): Promise<Record<string, number>>;
  save(key: string, at: number): Promise<void>;
  remove(key: string): Promise<void>;
}

/** Kept in memory: nothing survives a restart, so only fires missed while the machine slept are seen. */
export class MemoryTriggerStateStore implements TriggerStateStore {
  private readonly state = new Map<string, number>();

  async load(): Promise<Record<string, number>> {
    return Object.fromEntries(this.state);
  }

  async save(key: string, at: number): Promise<void> {
    this.state.set(key, at);
  }

  async remove(key: string): Promise<void> {
    this.state.delete(key);
  }
}

/** One small JSON file (e.g. `<data>/triggers.json`), rewritten atomically (temp file, fsync, rename) on every change. */
export class FileTriggerStateStore implements TriggerStateStore {
  private state: Record<string, number> | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly path: string) {}

  async load(): Promise<Record<string, number>> {
    if (this.state) return { ...this.state };
    let parsed: unknown = {};
    try {
      parsed = JSON.parse(await readFile(this.path, 'utf8')) as unknown;
    } catch (error) {
      // A missing file is a first start; a torn or foreign file is treated as empty (no catch-up) rather than a failed boot.
      if ((error as { code?: unknown }).code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
    }
    const entries = parsed && typeof parsed === 'object' ? Object.entries(parsed as Record<string, unknown>) : [];
    this.state = Object.fromEntries(entries.filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1])));
    return { ...this.state };
  }

  async save(key: string, at: number): Promise<void> {
    await this.change((state) => void (state[key] = at));
  }

  async remove(key: string): Promise<void> {
    await this.change((state) => void delete state[key]);
  }

  /** Changes are written one after another, each with the whole state. */
  private async change(apply: (state: Record<string, number>) => void): Promise<void> {
    if (!this.state) await this.load();
    apply(this.state!);
    const content = JSON.stringify(this.state, null, 1);
    this.writing = this.writing.catch(() => undefined).then(() => writeFileAtomic(this.path, content));
    await this.writing;
  }
}

/** The key–value namespace of trigger state. */
export const TRIGGER_STATE_NAMESPACE = 'triggers';

/** In a key–value store (DUR-04: PostgreSQL, shared by the hosts on one database), namespace `triggers`. */
export class KeyValueTriggerStateStore implements TriggerStateStore {
  constructor(private readonly store: KeyValueStore) {}

  async load(): Promise<Record<string, number>> {
    const entries = [...(await this.store.entries(TRIGGER_STATE_NAMESPACE))];
    return Object.fromEntries(entries.filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1])));
  }

  save(key: string, at: number): Promise<void> {
    return this.store.put(TRIGGER_STATE_NAMESPACE, key, at);
  }

  remove(key: string): Promise<void> {
    return this.store.delete(TRIGGER_STATE_NAMESPACE, key);
  }
}
