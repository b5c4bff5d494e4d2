import type { FairEntry } from './fair-queue';

/** One priority level's starts: weighted fair queueing across its keys (start-time fair queueing). */
export class PriorityLevel {
  /** Active keys (with waiting entries), a min-heap on (pass, head arrival). */
  readonly heap: FairKey[] = [];
  /** The start tag of the latest admission: a key that (re)joins starts here, with no old credit or debt. */
  vtime = 0;
  count = 0;

  constructor(
    readonly priority: number,
    /** Index of this level's cell in every key record (reused once the level is forgotten). */
    readonly slot: number,
    /** Unique per level ever made: a virtual time kept under another generation in the same slot is stale. */
    readonly generation: number,
  ) {}
}

/**
 * One fairness key across all levels. Its live state in a level is a FairKey (only while it has waiting
 * entries there); an idle key keeps just its virtual time per level, as numbers in this record, so a push
 * looks the key up once and reads a record that stays in cache instead of one object per level and key.
 */
export class KeyRecord {
  /** By level slot: the key's live state there, or null while it waits for nothing there. */
  readonly live: (FairKey | null)[] = [];
  /** By level slot, pairs [level generation, virtual time] from when the key last went idle there (0 = none). */
  readonly kept: number[] = [];
  liveCount = 0;

  constructor(readonly id: string) {}

  /** Makes room for `slots` level cells (only as far as the key has been seen: most keys see few levels). */
  grow(slots: number): void {
    while (this.live.length < slots) {
      this.live.push(null);
      this.kept.push(0, 0);
    }
  }

  /** The virtual time the key kept in `level` when it went idle there, or 0 when it kept none. */
  keptPass(level: PriorityLevel): number {
    const i = 2 * level.slot;
    return this.kept[i] === level.generation ? this.kept[i + 1]! : 0;
  }

  /** True while the key, idle in some level, is ahead of that level's virtual time (its credit still counts). */
  aheadIn(levels: readonly (PriorityLevel | null)[]): boolean {
    for (let s = 0; s < this.live.length; s++) {
      const level = levels[s];
      if (level && this.kept[2 * s] === level.generation && this.kept[2 * s + 1]! > level.vtime) return true;
    }
    return false;
  }
}

/** One fairness key within one priority level while it has waiting entries: its FIFO and virtual time (`pass`). Reused once idle. */
export class FairKey {
  pass = 0;
  /** Arrival of the head, kept here so heap comparisons touch only keys. */
  headSeq = 0;
  head: FairEntry | null = null;
  tail: FairEntry | null = null;
  count = 0;
  heapIndex = -1;
  /** Weight → waiting entries with it, made only when the key holds more than one weight. */
  private mixed: Map<number, number> | null = null;
  private single = 0;

  constructor(
    public level: PriorityLevel,
    public record: KeyRecord,
  ) {}

  get id(): string {
    return this.record.id;
  }

  /** The key admits at the lowest weight among its waiting entries (ADM-04). */
  get weight(): number {
    if (this.mixed === null) return this.single;
    let min = Infinity;
    for (const w of this.mixed.keys()) if (w < min) min = w;
    return min;
  }

  addWeight(w: number): void {
    if (this.mixed === null) {
      if (this.count === 0 || w === this.single) return void (this.single = w);
      this.mixed = new Map([[this.single, this.count]]);
    }
    this.mixed.set(w, (this.mixed.get(w) ?? 0) + 1);
  }

  /** Called after `count` has dropped for the removed entry. */
  removeWeight(w: number): void {
    if (this.mixed === null) return;
    const left = (this.mixed.get(w) ?? 1) - 1;
    if (left > 0) this.mixed.set(w, left);
    else this.mixed.delete(w);
    if (this.mixed.size === 1) {
      this.single = this.mixed.keys().next().value as number;
      this.mixed = null;
    }
  }

  /** True while the key's waiting entries carry more than one weight. */
  get isMixed(): boolean {
    return this.mixed !== null;
  }

  weightCounts(): Map<number, number> {
    return this.mixed ? new Map(this.mixed) : new Map([[this.single, this.count]]);
  }
}

export function keyLess(a: FairKey, b: FairKey): boolean {
  return a.pass < b.pass || (a.pass === b.pass && a.headSeq < b.headSeq);
}

// --- an indexed min-heap of keys (each key knows its index, so it can be moved or removed) ---------

export function heapInsert(heap: FairKey[], key: FairKey): void {
  key.heapIndex = heap.length;
  heap.push(key);
  siftUp(heap, key.heapIndex);
}

export function heapRemove(heap: FairKey[], index: number): void {
  const last = heap.pop()!;
  const removed = index < heap.length ? heap[index]! : last;
  removed.heapIndex = -1;
  if (index < heap.length) {
    heap[index] = last;
    last.heapIndex = index;
    heapFix(heap, index);
  }
}

export function heapFix(heap: FairKey[], index: number): void {
  if (!siftUp(heap, index)) siftDown(heap, index);
}

function siftUp(heap: FairKey[], index: number): boolean {
  return climb(heap, heap[index]!, index, 0) !== index;
}

/** Places `key` at `from` or above it, no higher than `floor`, moving the parents it passes down; returns where it is. */
function climb(heap: FairKey[], key: FairKey, from: number, floor: number): number {
  let i = from;
  while (i > floor) {
    const parent = (i - 1) >> 1;
    const p = heap[parent]!;
    if (!keyLess(key, p)) break;
    heap[i] = p;
    p.heapIndex = i;
    i = parent;
  }
  heap[i] = key;
  key.heapIndex = i;
  return i;
}

/**
 * Moves a key down after its virtual time grew. An admitted key usually sinks to the bottom, so the hole
 * goes down to a leaf along the smaller children (one comparison per level) and the key then climbs back
 * the little it must (Floyd's bottom-up heap): about half the comparisons of the textbook sift-down.
 */
function siftDown(heap: FairKey[], index: number): void {
  const key = heap[index]!;
  const n = heap.length;
  let i = index;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) break;
    const r = l + 1;
    const child = r < n && keyLess(heap[r]!, heap[l]!) ? r : l;
    const c = heap[child]!;
    heap[i] = c;
    c.heapIndex = i;
    i = child;
  }
  climb(heap, key, i, index);
}
