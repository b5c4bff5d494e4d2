import type { Status } from '../../../shared/status/status';
import type { RecordedMessage } from '../checkpoint-store';
import type { NodeOrder, NodeOrders } from './node-order';

type Metadata = Readonly<Record<string, string>>;

/** A node's messages after its first: their payloads, and what differs from the first, index by index. */
interface MoreMessages {
  payloads: unknown[];
  ports: string[] | null;
  metadata: Metadata[] | null;
  ids: Array<string | undefined> | null;
}

/** Numbers per node: messages kept, bytes kept. */
const NUMS = 2;
const NO_NUMS = new Float64Array(0);
/** References per node: end status, first message's port, payload, metadata, id. */
const REFS = 5;
/**
 * One run's recordings in the memory store (DUR-02), as a few arrays indexed by node (in the order its
 * nodes were first written, an order shared with the runs before it that wrote the same nodes): counts
 * and bytes, end markers and each node's first message; later messages keep only their payloads. A
 * retained run of n nodes costs a handful of objects, not several per node and no index of its own, so
 * the archive's newest 100 runs weigh little on garbage collection.
 */
export class RunRecordings {
  /** The nodes written so far: the first `size` of `order`. */
  private order: NodeOrder | null = null;
  private size = 0;

  constructor(
    readonly executionId: string,
    private readonly orders: NodeOrders,
  ) {}

  /** Off the JS heap (a typed array of this size), so a retained run costs the scavenger no copy of it. */
  private nums: Float64Array = NO_NUMS;
  private refs: unknown[] = [];
  private more: Map<number, MoreMessages> | null = null;
  /** Why recording stopped, by node (a cap was passed). */
  private overCaps: Map<number, string> | null = null;
  /** Nodes whose output moved to the spill folder. */
  private spilledNodes: Set<number> | null = null;

  /** The node's index, made at the first write for it. */
  nodeIndex(nodeId: string, create: boolean): number {
    const at = this.order === null ? -1 : this.order.indexOf(nodeId);
    if ((at >= 0 && at < this.size) || !create) return at < this.size ? at : -1;
    if (this.order === null) {
      this.order = this.orders.startingWith(nodeId);
      // Room for as many nodes as the runs before it wrote (no growth on the way).
      this.nums = new Float64Array(this.order.ids.length * NUMS);
      this.refs = new Array<unknown>(this.order.ids.length * REFS);
    } else this.order = this.order.extended(this.size, nodeId);
    const n = this.size * NUMS;
    if (n + NUMS > this.nums.length) this.nums = grown(this.nums, n + NUMS);
    const r = this.size * REFS;
    this.refs[r] = null;
    this.refs[r + 1] = '';
    this.refs[r + 2] = undefined;
    this.refs[r + 3] = null;
    this.refs[r + 4] = undefined;
    return this.size++;
  }

  /** The id of the node at `node`. */
  nodeId(node: number): string {
    return this.order!.ids[node]!;
  }

  count(node: number): number {
    return this.nums[node * NUMS]!;
  }

  bytes(node: number): number {
    return this.nums[node * NUMS + 1]!;
  }

  end(node: number): Status | null {
    return this.refs[node * REFS] as Status | null;
  }

  setEnd(node: number, status: Status): void {
    this.refs[node * REFS] = status;
  }

  overCap(node: number): string | null {
    return this.overCaps?.get(node) ?? null;
  }

  spilled(node: number): boolean {
    return this.spilledNodes?.has(node) ?? false;
  }

  /** Keeps one more message of the node (caps are the store's: checked before). */
  keep(node: number, message: RecordedMessage, size: number): void {
    const n = node * NUMS;
    const count = this.nums[n]!;
    this.nums[n] = count + 1;
    this.nums[n + 1]! += size;
    const r = node * REFS;
    if (count === 0) {
      this.refs[r + 1] = message.port;
      this.refs[r + 2] = message.payload;
      this.refs[r + 3] = message.metadata;
      this.refs[r + 4] = message.messageId;
      return;
    }
    let more = this.more?.get(node);
    if (!more) (this.more ??= new Map()).set(node, (more = { payloads: [], ports: null, metadata: null, ids: null }));
    const at = more.payloads.length;
    more.payloads.push(message.payload);
    if (more.ports !== null || message.port !== this.refs[r + 1]) (more.ports ??= new Array<string>(at).fill(this.refs[r + 1] as string)).push(message.port);
    if (more.metadata !== null || message.metadata !== this.refs[r + 3])
      (more.metadata ??= new Array<Metadata>(at).fill(this.refs[r + 3] as Metadata)).push(message.metadata);
    if (more.ids !== null || message.messageId !== this.refs[r + 4])
      (more.ids ??= new Array<string | undefined>(at).fill(this.refs[r + 4] as string | undefined)).push(message.messageId);
  }

  messages(node: number): RecordedMessage[] {
    const count = this.count(node);
    if (count === 0) return [];
    const r = node * REFS;
    const port = this.refs[r + 1] as string;
    const metadata = this.refs[r + 3] as Metadata;
    const id = this.refs[r + 4] as string | undefined;
    const out = [recorded(port, this.refs[r + 2], metadata, id)];
    const more = this.more?.get(node);
    if (more) {
      for (let i = 0; i < more.payloads.length; i++)
        out.push(recorded(more.ports?.[i] ?? port, more.payloads[i], more.metadata?.[i] ?? metadata, more.ids === null ? id : more.ids[i]));
    }
    return out;
  }

  /** The node keeps nothing more (a partial output is never replayed); `overCap` says why, or it moved to the spill folder. */
  forget(node: number, how: { overCap: string } | 'spilled'): void {
    this.nums[node * NUMS] = 0;
    this.nums[node * NUMS + 1] = 0;
    const r = node * REFS;
    this.refs[r + 2] = undefined;
    this.refs[r + 3] = null;
    this.more?.delete(node);
    if (how === 'spilled') (this.spilledNodes ??= new Set()).add(node);
    else {
      this.spilledNodes?.delete(node); // a spill that failed leaves the node over its cap
      (this.overCaps ??= new Map()).set(node, how.overCap);
    }
  }

  /** Bytes kept by every node of the run. */
  totalBytes(): number {
    let total = 0;
    for (let n = 1; n < this.size * NUMS; n += NUMS) total += this.nums[n]!;
    return total;
  }
}

function recorded(port: string, payload: unknown, metadata: Metadata, messageId: string | undefined): RecordedMessage {
  return messageId === undefined ? { port, payload, metadata } : { port, payload, metadata, messageId };
}

function grown(nums: Float64Array, needed: number): Float64Array {
  const next = new Float64Array(Math.max(needed, 2 * nums.length));
  next.set(nums);
  return next;
}
