import { BinaryHeap } from './binary-heap';
import { FairKey, heapFix, heapInsert, heapRemove, KeyRecord, keyLess, PriorityLevel } from './fair-keys';

/**
 * A waiting start as the fair queue orders it. Subclasses carry the scheduler's data; the links are the
 * queue's own (an intrusive list per fairness key, so removal is O(1)).
 */
export class FairEntry {
  /** Neighbours in the key's FIFO; owner is null while the entry is not queued. */
  prev: FairEntry | null = null;
  next: FairEntry | null = null;
  owner: FairKey | null = null;

  constructor(
    /** Arrival order: unique and increasing; kept across priority changes. */
    readonly seq: number,
    public priority: number,
    readonly key: string,
    readonly weight: number,
  ) {}
}

const MIN_SWEEP = 1024;
/** Empty priority levels kept (with their keys' virtual times) before they are all forgotten. */
export const MAX_EMPTY_LEVELS = 64;
/** Idle FairKey objects kept for reuse (a key joins and leaves a level about once per admission). */
const MAX_SPARE_KEYS = 1024;
/** Priorities 0…SMALL_PRIORITIES-1 (integers) find their level in an array instead of the map. */
const SMALL_PRIORITIES = 64;

/**
 * The admission order of waiting starts (ADM-01, ADM-04): higher priority first; within a priority,
 * fairness keys share admissions in proportion to their weights (each admission moves the key's virtual
 * time on by 1/weight; the key with the smallest virtual time goes next, the one with the oldest head on a
 * tie); FIFO within a key. Push, remove and admit cost O(log keys-of-the-level + levels).
 */
export class FairQueue<E extends FairEntry> {
  /** Every level seen lately: an empty one keeps its keys' virtual times, so strict priority's churn at the top is cheap. */
  private readonly levels = new Map<number, PriorityLevel>();
  /** The same levels for small integer priorities, by priority (most priorities are). */
  private readonly smallLevels: (PriorityLevel | null)[] = new Array<PriorityLevel | null>(SMALL_PRIORITIES).fill(null);
  /** Non-empty levels, highest priority first. */
  private readonly order: PriorityLevel[] = [];
  /** Levels by slot (null: a free slot, once its level was forgotten). */
  private readonly slots: (PriorityLevel | null)[] = [];
  private readonly freeSlots: number[] = [];
  private generations = 0;
  private emptyLevels = 0;
  /** Every fairness key seen lately, with its state in all levels. */
  private readonly records = new Map<string, KeyRecord>();
  /** Sweep records of idle keys once the map grows past this. */
  private sweepAt = MIN_SWEEP;
  private readonly spareKeys: FairKey[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(entry: E): void {
    const p = entry.priority;
    const level = (p >>> 0 === p && p < SMALL_PRIORITIES ? this.smallLevels[p] : this.levels.get(p)) ?? this.newLevel(p);
    if (level.count === 0) this.activate(level);
    const record = this.records.get(entry.key) ?? this.newRecord(entry.key);
    if (level.slot >= record.live.length) record.grow(level.slot + 1);
    let key = record.live[level.slot]!;
    const wasIdle = key === null;
    if (wasIdle) key = this.wake(record, level);
    key.addWeight(entry.weight);
    const first = link(key, entry);
    key.count++;
    level.count++;
    this.count++;
    if (wasIdle) heapInsert(level.heap, key);
    else if (first) heapFix(level.heap, key.heapIndex);
  }

  /** Takes a start out of the queue without admitting it (cancelled, timed out, re-prioritised). */
  remove(entry: E): boolean {
    const key = entry.owner;
    if (key === null) return false;
    const level = key.level;
    const wasHead = key.head === entry;
    unlink(key, entry);
    key.count--;
    key.removeWeight(entry.weight);
    level.count--;
    this.count--;
    if (key.count === 0) this.sleep(key);
    else if (wasHead) heapFix(level.heap, key.heapIndex);
    if (level.count === 0) this.deactivate(level);
    return true;
  }

  /** Takes a start out as admitted: its key's virtual time moves on by 1/weight. */
  admit(entry: E): void {
    const key = entry.owner;
    if (key === null) throw new Error('admit: the entry is not queued');
    const level = key.level;
    if (key.pass > level.vtime) level.vtime = key.pass;
    key.pass += 1 / key.weight;
    if (key.count > 1 && key.head !== entry) heapFix(level.heap, key.heapIndex);
    this.remove(entry);
  }

  /** The next start in admission order, or null. */
  peek(): E | null {
    const level = this.order[0];
    return level ? (level.heap[0]!.head as E) : null;
  }

  /**
   * The first start in admission order that `eligible` accepts. A start held by its own cap (workflow,
   * session) is passed over, so it never blocks the starts behind it.
   */
  find(eligible: (entry: E) => boolean): E | null {
    for (const level of this.order) {
      const top = level.heap[0]!.head as E;
      if (eligible(top)) return top;
      const keys = [...level.heap].sort((a, b) => (keyLess(a, b) ? -1 : 1));
      for (const key of keys) {
        for (let e = key.head; e !== null; e = e.next) if (eligible(e as E)) return e as E;
      }
    }
    return null;
  }

  /** The first `limit` waiting starts in the order they would be admitted if nothing changed. */
  ordered(limit = Infinity): E[] {
    const out: E[] = [];
    for (const level of this.order) {
      if (out.length >= limit) break;
      simulateLevel(level, limit - out.length, out as FairEntry[]);
    }
    return out;
  }

  private newLevel(priority: number): PriorityLevel {
    const slot = this.freeSlots.pop() ?? this.slots.length;
    const level = new PriorityLevel(priority, slot, ++this.generations);
    this.slots[slot] = level;
    this.levels.set(priority, level);
    if (priority >>> 0 === priority && priority < SMALL_PRIORITIES) this.smallLevels[priority] = level;
    this.emptyLevels++;
    return level;
  }

  private newRecord(id: string): KeyRecord {
    const record = new KeyRecord(id);
    this.records.set(id, record);
    return record;
  }

  /** A key gets its first entry in a level: it starts at its kept virtual time, or the level's when that is later. */
  private wake(record: KeyRecord, level: PriorityLevel): FairKey {
    const key = this.spareKeys.pop() ?? new FairKey(level, record);
    key.level = level;
    key.record = record;
    key.pass = Math.max(record.keptPass(level), level.vtime);
    record.live[level.slot] = key;
    record.liveCount++;
    return key;
  }

  /** A key's last entry in a level left: the record keeps its virtual time there, the FairKey is reused. */
  private sleep(key: FairKey): void {
    const { level, record } = key;
    heapRemove(level.heap, key.heapIndex);
    record.kept[2 * level.slot] = level.generation;
    record.kept[2 * level.slot + 1] = key.pass;
    record.live[level.slot] = null;
    record.liveCount--;
    if (this.spareKeys.length < MAX_SPARE_KEYS) this.spareKeys.push(key);
    this.forgetIdle();
  }

  /** A level gets its first entry: it joins the order (shifted by hand: `splice` makes an array per call). */
  private activate(level: PriorityLevel): void {
    this.emptyLevels--;
    const order = this.order;
    let i = order.length;
    order.push(level);
    for (; i > 0 && order[i - 1]!.priority < level.priority; i--) order[i] = order[i - 1]!;
    order[i] = level;
  }

  /** An emptied level leaves the order; empty levels are forgotten once more than MAX_EMPTY_LEVELS pile up. */
  private deactivate(level: PriorityLevel): void {
    const order = this.order;
    const last = order.length - 1;
    for (let i = order.indexOf(level); i < last; i++) order[i] = order[i + 1]!;
    order.pop();
    if (++this.emptyLevels <= MAX_EMPTY_LEVELS) return;
    for (const [p, l] of this.levels) {
      if (l.count > 0) continue;
      this.levels.delete(p);
      if (p >>> 0 === p && p < SMALL_PRIORITIES) this.smallLevels[p] = null;
      this.slots[l.slot] = null;
      this.freeSlots.push(l.slot);
    }
    this.emptyLevels = 0;
  }

  /**
   * An idle key is worth keeping only while it is ahead of some level's virtual time (otherwise it would
   * rejoin there anyway). Stale ones are swept when the records have doubled since the last sweep, so
   * churning keys cannot grow the map without bound and a sweep costs O(levels) per new key on average.
   */
  private forgetIdle(): void {
    if (this.records.size <= this.sweepAt) return;
    for (const [id, r] of this.records) if (r.liveCount === 0 && !r.aheadIn(this.slots)) this.records.delete(id);
    this.sweepAt = Math.max(MIN_SWEEP, 2 * this.records.size);
  }
}

/** Appends in arrival order (a re-prioritised start may be older than the tail); true when it became the head. */
function link(key: FairKey, entry: FairEntry): boolean {
  entry.owner = key;
  let after = key.tail;
  while (after !== null && after.seq > entry.seq) after = after.prev;
  entry.prev = after;
  entry.next = after === null ? key.head : after.next;
  if (entry.next !== null) entry.next.prev = entry;
  else key.tail = entry;
  if (after !== null) after.next = entry;
  else {
    key.head = entry;
    key.headSeq = entry.seq;
  }
  return after === null;
}

function unlink(key: FairKey, entry: FairEntry): void {
  if (entry.prev !== null) entry.prev.next = entry.next;
  else {
    key.head = entry.next;
    if (entry.next !== null) key.headSeq = entry.next.seq;
  }
  if (entry.next !== null) entry.next.prev = entry.prev;
  else key.tail = entry.prev;
  entry.prev = entry.next = entry.owner = null;
}

interface Cursor {
  key: FairKey;
  pass: number;
  at: FairEntry;
  weights: Map<number, number> | null;
}

/** Replays a level's admissions on copies of its keys' virtual times, without touching the queue. */
function simulateLevel(level: PriorityLevel, limit: number, out: FairEntry[]): void {
  const heap = new BinaryHeap<Cursor>((a, b) => a.pass < b.pass || (a.pass === b.pass && a.at.seq < b.at.seq));
  for (const key of level.heap) heap.push({ key, pass: key.pass, at: key.head!, weights: null });
  for (let taken = 0; taken < limit && heap.size > 0; taken++) {
    const c = heap.pop()!;
    out.push(c.at);
    c.pass += 1 / minWeight(c);
    if (c.weights !== null) {
      const left = c.weights.get(c.at.weight)! - 1;
      if (left > 0) c.weights.set(c.at.weight, left);
      else c.weights.delete(c.at.weight);
    }
    const next = c.at.next;
    if (next !== null) {
      c.at = next;
      heap.push(c);
    }
  }
}

function minWeight(c: Cursor): number {
  if (c.weights === null) {
    // Only a key holding several weights needs its own count: the lowest can leave as entries pass.
    if (!c.key.isMixed) return c.key.weight;
    c.weights = c.key.weightCounts();
  }
  let min = Infinity;
  for (const w of c.weights.keys()) if (w < min) min = w;
  return min;
}
