import { BinaryHeap } from './binary-heap';

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

/** One fairness key within one priority level: its FIFO and its virtual time (`pass`). */
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
    readonly level: PriorityLevel,
    readonly id: string,
  ) {}

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

/** The starts of one priority: weighted fair queueing across keys (start-time fair queueing). */
export class PriorityLevel {
  readonly keys = new Map<string, FairKey>();
  /** Active keys (with waiting entries), a min-heap on (pass, head arrival). */
  readonly heap: FairKey[] = [];
  /** The start tag of the latest admission: a key that (re)joins starts here, with no old credit or debt. */
  vtime = 0;
  count = 0;
  /** Sweep idle keys once the map grows past this. */
  sweepAt = MIN_SWEEP;

  constructor(readonly priority: number) {}
}

function keyLess(a: FairKey, b: FairKey): boolean {
  return a.pass < b.pass || (a.pass === b.pass && a.headSeq < b.headSeq);
}

/**
 * The admission order of waiting starts (ADM-01, ADM-04): higher priority first; within a priority,
 * fairness keys share admissions in proportion to their weights (each admission moves the key's virtual
 * time on by 1/weight; the key with the smallest virtual time goes next, the one with the oldest head on a
 * tie); FIFO within a key. Push, remove and admit cost O(log keys-of-the-level + levels).
 */
export class FairQueue<E extends FairEntry> {
  /** Every level seen lately: an empty one keeps its keys' virtual times, so strict priority's churn at the top is cheap. */
  private readonly levels = new Map<number, PriorityLevel>();
  /** Non-empty levels, highest priority first. */
  private readonly order: PriorityLevel[] = [];
  private emptyLevels = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(entry: E): void {
    const level = this.levels.get(entry.priority) ?? this.newLevel(entry.priority);
    if (level.count === 0) this.activate(level);
    let key = level.keys.get(entry.key);
    if (key === undefined) {
      key = new FairKey(level, entry.key);
      level.keys.set(entry.key, key);
    }
    const wasIdle = key.count === 0;
    key.addWeight(entry.weight);
    const first = link(key, entry);
    key.count++;
    level.count++;
    this.count++;
    if (wasIdle) {
      if (key.pass < level.vtime) key.pass = level.vtime;
      heapInsert(level.heap, key);
    } else if (first) heapFix(level.heap, key.heapIndex);
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
    if (key.count === 0) {
      heapRemove(level.heap, key.heapIndex);
      this.forgetIdle(level);
    } else if (wasHead) heapFix(level.heap, key.heapIndex);
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
    const level = new PriorityLevel(priority);
    this.levels.set(priority, level);
    this.emptyLevels++;
    return level;
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
    for (const [p, l] of this.levels) if (l.count === 0) this.levels.delete(p);
    this.emptyLevels = 0;
  }

  /**
   * An idle key is worth keeping only while it is ahead of the level's virtual time (otherwise it would
   * rejoin there anyway). Stale ones are swept when the level's keys have doubled since the last sweep, so
   * churning keys cannot grow the map without bound and a sweep costs O(1) per admission on average.
   */
  private forgetIdle(level: PriorityLevel): void {
    if (level.keys.size <= level.sweepAt) return;
    for (const [id, k] of level.keys) if (k.count === 0 && k.pass <= level.vtime) level.keys.delete(id);
    level.sweepAt = Math.max(MIN_SWEEP, 2 * level.keys.size);
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

// --- an indexed min-heap of keys (each key knows its index, so it can be moved or removed) ---------

function heapInsert(heap: FairKey[], key: FairKey): void {
  key.heapIndex = heap.length;
  heap.push(key);
  siftUp(heap, key.heapIndex);
}

function heapRemove(heap: FairKey[], index: number): void {
  const last = heap.pop()!;
  const removed = index < heap.length ? heap[index]! : last;
  removed.heapIndex = -1;
  if (index < heap.length) {
    heap[index] = last;
    last.heapIndex = index;
    heapFix(heap, index);
  }
}

function heapFix(heap: FairKey[], index: number): void {
  if (!siftUp(heap, index)) siftDown(heap, index);
}

function siftUp(heap: FairKey[], index: number): boolean {
  const key = heap[index]!;
  let i = index;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const p = heap[parent]!;
    if (!keyLess(key, p)) break;
    heap[i] = p;
    p.heapIndex = i;
    i = parent;
  }
  heap[i] = key;
  key.heapIndex = i;
  return i !== index;
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
  while (i > index) {
    const parent = (i - 1) >> 1;
    const p = heap[parent]!;
    if (!keyLess(key, p)) break;
    heap[i] = p;
    p.heapIndex = i;
    i = parent;
  }
  heap[i] = key;
  key.heapIndex = i;
}
