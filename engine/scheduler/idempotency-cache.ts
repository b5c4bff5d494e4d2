import type { Clock } from '../runtime/clock';

interface Entry {
  /** Resolves with the execution id of the first start; shared by repeats that arrive while it runs. */
  start: Promise<string>;
  payloadHash: string;
  expiresAt: number;
}

/** What a repeat with the same key finds. */
export type IdempotencyLookup = { kind: 'new' } | { kind: 'repeat'; start: Promise<string> } | { kind: 'conflict' };

/**
 * Idempotent starts (ADM-02): the same key, session and workflow within the TTL return the first
 * execution id. A failed start is forgotten. At most `maxKeys` are kept; the oldest key is evicted first,
 * and an evicted key lets a repeat start again.
 */
export class IdempotencyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly maxKeys: number,
  ) {}

  /** Looks a key up; a different payload under the same key is a conflict. */
  lookup(scope: string, key: string, payloadHash: string): IdempotencyLookup {
    const id = `${scope}\u0000${key}`;
    const entry = this.entries.get(id);
    if (!entry) return { kind: 'new' };
    if (entry.expiresAt <= this.clock.now()) {
      this.entries.delete(id);
      return { kind: 'new' };
    }
    return entry.payloadHash === payloadHash ? { kind: 'repeat', start: entry.start } : { kind: 'conflict' };
  }

  /** Remembers a start in progress; forgets it if the start fails. */
  remember(scope: string, key: string, payloadHash: string, start: Promise<string>): void {
    const id = `${scope}\u0000${key}`;
    this.entries.set(id, { start, payloadHash, expiresAt: this.clock.now() + this.ttlMs });
    while (this.entries.size > this.maxKeys) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    start.catch(() => {
      if (this.entries.get(id)?.start === start) this.entries.delete(id);
    });
  }

  get size(): number {
    return this.entries.size;
  }
}
