import type { PreparedWorkflow } from '../runtime/prepared-workflow';

/**
 * Prepared workflows by definition content (DEF-03). Concurrent starts of a workflow that is not prepared
 * yet share one preparation. The key is the content hash (the definition version), so an old compile can
 * never stand in for a newer edit: an edited definition has another key. A failed preparation is not
 * kept. Bounded: the least recently used entry goes first.
 */
export class PreparationCache {
  private readonly entries = new Map<string, Promise<PreparedWorkflow>>();
  private hits = 0;
  private misses = 0;

  constructor(private readonly maxEntries = 200) {}

  get(version: string, prepare: () => PreparedWorkflow | Promise<PreparedWorkflow>): Promise<PreparedWorkflow> {
    const cached = this.entries.get(version);
    if (cached) {
      this.hits++;
      this.entries.delete(version);
      this.entries.set(version, cached); // most recently used last
      return cached;
    }
    this.misses++;
    const pending = Promise.resolve().then(prepare);
    this.entries.set(version, pending);
    pending.catch(() => {
      if (this.entries.get(version) === pending) this.entries.delete(version);
    });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return pending;
  }

  /** The preparation of a version if it is cached, without preparing anything. */
  peek(version: string): Promise<PreparedWorkflow> | undefined {
    const cached = this.entries.get(version);
    if (cached) this.hits++;
    return cached;
  }

  /** Drops an entry, e.g. when a session configuration replaces its workflows (DUR-05). */
  drop(version: string): void {
    this.entries.delete(version);
  }

  stats(): { hits: number; misses: number; size: number } {
    return { hits: this.hits, misses: this.misses, size: this.entries.size };
  }
}
