import { z } from 'zod';
import { EdgeDefinition, NodeDefinition, Position, type WorkflowDefinition } from './definition.schema';

/**
 * WorkflowDiff (DEF-01): what changed between two versions of a workflow, pure so the host (REST
 * `workflows.diff`) and the studio (diff drawn on the canvas) compute the same thing.
 *
 * Decisions:
 * - A node is matched by `nodeId`, an edge by (source, sourcePort, target, targetPort), taken literally
 *   (an absent port differs from `out`).
 * - Position-only moves are reported in `nodes.moved`, never in `nodes.changed`, so a diff view can
 *   ignore layout; a node both edited and moved appears in both.
 * - `changed` lists every other key that differs: `type`, `label`, `timeoutSeconds`, and config leaves by
 *   path (plain objects are walked; arrays and scalars are compared whole).
 * - The order of nodes and edges is not a change: the canvas does not show it.
 */

/** One changed key. `before` absent: the key was added; `after` absent: it was removed. */
export const ValueChange = z.object({
  /** Dotted key for display, e.g. `config.set.greeting`. */
  key: z.string(),
  /** The same key as segments, exact even when a config key holds a dot. */
  path: z.array(z.string()),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});
export type ValueChange = z.infer<typeof ValueChange>;

export const NodeChange = z.object({ nodeId: z.string(), changes: z.array(ValueChange) });
export type NodeChange = z.infer<typeof NodeChange>;

export const NodeMove = z.object({ nodeId: z.string(), before: Position.optional(), after: Position.optional() });
export type NodeMove = z.infer<typeof NodeMove>;

export const WorkflowDiff = z.object({
  description: z.object({ before: z.string(), after: z.string() }).optional(),
  nodes: z.object({
    added: z.array(NodeDefinition),
    removed: z.array(NodeDefinition),
    changed: z.array(NodeChange),
    moved: z.array(NodeMove),
  }),
  edges: z.object({ added: z.array(EdgeDefinition), removed: z.array(EdgeDefinition) }),
});
export type WorkflowDiff = z.infer<typeof WorkflowDiff>;

type Json = unknown;
type JsonObject = Record<string, Json>;
type DiffableWorkflow = Pick<WorkflowDefinition, 'description' | 'nodes' | 'edges'>;

/** Keys of a node compared as leaves before `config`; any other key (a future field) is compared too. */
const LEADING_KEYS = ['type', 'label', 'timeoutSeconds'];
const NOT_COMPARED = new Set(['nodeId', 'position', 'config']);

/** Computes what changed from `before` to `after`. */
export function diffWorkflows(before: DiffableWorkflow, after: DiffableWorkflow): WorkflowDiff {
  const diff: WorkflowDiff = { nodes: { added: [], removed: [], changed: [], moved: [] }, edges: { added: [], removed: [] } };
  if ((before.description ?? '') !== (after.description ?? '')) diff.description = { before: before.description ?? '', after: after.description ?? '' };
  const oldNodes = byId(before.nodes);
  const newNodes = byId(after.nodes);
  for (const [id, node] of oldNodes) if (!newNodes.has(id)) diff.nodes.removed.push(clone(node));
  for (const [id, node] of newNodes) {
    const old = oldNodes.get(id);
    if (!old) {
      diff.nodes.added.push(clone(node));
      continue;
    }
    const changes = nodeChanges(old, node);
    if (changes.length) diff.nodes.changed.push({ nodeId: id, changes });
    if (!sameJson(old.position, node.position)) diff.nodes.moved.push(moveOf(id, old, node));
  }
  const [removed, added] = edgeDifference(before.edges, after.edges);
  diff.edges = { added, removed };
  return diff;
}

/** True when the diff reports nothing at all (moves included). */
export function isEmptyDiff(diff: WorkflowDiff): boolean {
  const { nodes, edges } = diff;
  return (
    !diff.description &&
    !nodes.added.length &&
    !nodes.removed.length &&
    !nodes.changed.length &&
    !nodes.moved.length &&
    !edges.added.length &&
    !edges.removed.length
  );
}

/**
 * Applies a diff to the version it was computed from, giving the other version (up to node and edge
 * order): a diff explains every difference. Used by tests and by previews; never mutates its input.
 */
export function applyWorkflowDiff<W extends DiffableWorkflow>(base: W, diff: WorkflowDiff): W {
  const out = clone(base);
  if (diff.description) out.description = diff.description.after;
  const removed = new Set(diff.nodes.removed.map((n) => n.nodeId));
  out.nodes = out.nodes.filter((n) => !removed.has(n.nodeId));
  const nodes = byId(out.nodes);
  for (const { nodeId, changes } of diff.nodes.changed) {
    const node = nodes.get(nodeId) as unknown as JsonObject | undefined;
    if (node) for (const change of changes) applyChange(node, change);
  }
  for (const move of diff.nodes.moved) {
    const node = nodes.get(move.nodeId);
    if (!node) continue;
    if (move.after) node.position = { ...move.after };
    else delete node.position;
  }
  out.nodes.push(...diff.nodes.added.map(clone));
  const [edges] = edgeDifference(out.edges, diff.edges.removed);
  out.edges = [...edges, ...diff.edges.added.map(clone)];
  return out;
}

/** Edge identity: both ends and both ports, literally. */
export function edgeKey(edge: EdgeDefinition): string {
  return [edge.source, edge.sourcePort ?? '', edge.target, edge.targetPort ?? ''].join('\u0000');
}

function nodeChanges(before: NodeDefinition, after: NodeDefinition): ValueChange[] {
  const a = before as unknown as JsonObject;
  const b = after as unknown as JsonObject;
  const others = unionKeys(a, b).filter((k) => !NOT_COMPARED.has(k) && !LEADING_KEYS.includes(k));
  const changes: ValueChange[] = [];
  for (const key of [...LEADING_KEYS, ...others]) compareValues(a[key], b[key], [key], changes);
  compareValues(a.config ?? {}, b.config ?? {}, ['config'], changes);
  return changes;
}

/** Walks plain objects key by key; anything else differing is one change at `path`. */
function compareValues(before: Json, after: Json, path: string[], out: ValueChange[]): void {
  if (isPlainObject(before) && isPlainObject(after)) {
    for (const key of unionKeys(before, after)) compareValues(own(before, key), own(after, key), [...path, key], out);
    return;
  }
  if (sameJson(before, after)) return;
  const change: ValueChange = { key: path.join('.'), path };
  if (before !== undefined) change.before = clone(before);
  if (after !== undefined) change.after = clone(after);
  out.push(change);
}

function applyChange(node: JsonObject, change: ValueChange): void {
  let target = node;
  for (const segment of change.path.slice(0, -1)) {
    if (!isPlainObject(own(target, segment))) setOwn(target, segment, {});
    target = own(target, segment) as JsonObject;
  }
  const last = change.path[change.path.length - 1]!;
  if (change.after === undefined) delete target[last];
  else setOwn(target, last, clone(change.after));
}

function moveOf(nodeId: string, before: NodeDefinition, after: NodeDefinition): NodeMove {
  const move: NodeMove = { nodeId };
  if (before.position) move.before = { ...before.position };
  if (after.position) move.after = { ...after.position };
  return move;
}

/** Multiset difference by edge key: [edges only in `a`, edges only in `b`]. */
function edgeDifference(a: readonly EdgeDefinition[], b: readonly EdgeDefinition[]): [EdgeDefinition[], EdgeDefinition[]] {
  const pending = new Map<string, number>();
  for (const e of b) pending.set(edgeKey(e), (pending.get(edgeKey(e)) ?? 0) + 1);
  const onlyA: EdgeDefinition[] = [];
  for (const e of a) {
    const left = pending.get(edgeKey(e)) ?? 0;
    if (left > 0) pending.set(edgeKey(e), left - 1);
    else onlyA.push(clone(e));
  }
  const onlyB: EdgeDefinition[] = [];
  for (const e of b) {
    const left = pending.get(edgeKey(e)) ?? 0;
    if (left > 0) {
      pending.set(edgeKey(e), left - 1);
      onlyB.push(clone(e));
    }
  }
  return [onlyA, onlyB];
}

/** Nodes by id; with duplicate ids (an invalid graph) the first wins. */
function byId(nodes: readonly NodeDefinition[]): Map<string, NodeDefinition> {
  const map = new Map<string, NodeDefinition>();
  for (const n of nodes) if (!map.has(n.nodeId)) map.set(n.nodeId, n);
  return map;
}

function unionKeys(a: JsonObject, b: JsonObject): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => own(a, k) !== undefined || own(b, k) !== undefined).sort();
}

function isPlainObject(value: Json): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep JSON equality, key order ignored, `undefined` properties treated as absent. */
export function sameJson(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = unionKeys(a, b);
  return keys.every((k) => sameJson(own(a, k), own(b, k)));
}

/** An own property only: `{}['__proto__']` is Object.prototype, not an absent key (a config may name `__proto__`). */
function own(target: JsonObject, key: string): Json {
  return Object.hasOwn(target, key) ? target[key] : undefined;
}

/** Sets an own property, also for a key like `__proto__` that plain assignment would not store. */
function setOwn(target: JsonObject, key: string, value: Json): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function clone<T>(value: T): T {
  return structuredClone(value);
}
