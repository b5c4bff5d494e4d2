import { EnginePolicy, ERROR_PORT, DEFAULT_PORT } from './engine-policy.schema';
import { MAX_EDGES, MAX_NODES, WorkflowDefinition } from './definition.schema';
import { outputPorts, type NodeTypeCatalog } from './node-type';
import { joinPath, type ValidationIssue } from './validation-issue';
import { connectionWarnings } from './connection-warnings';

/**
 * Pure graph rules of DEF-02, shared by the renderer (live) and the engine (authoritative).
 * Plugin config schemas are checked by the engine on top of these.
 */
export function validateGraph(def: WorkflowDefinition, catalog?: NodeTypeCatalog): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (def.nodes.length > MAX_NODES) {
    issues.push(error('DEF-02/too-many-nodes', `a workflow has at most ${MAX_NODES} nodes (this one has ${def.nodes.length})`, { path: 'nodes' }));
  }
  if (def.edges.length > MAX_EDGES) {
    issues.push(error('DEF-02/too-many-edges', `a workflow has at most ${MAX_EDGES} edges (this one has ${def.edges.length})`, { path: 'edges' }));
  }
  const nodeIndex = checkNodes(def, catalog, issues);
  checkEdges(def, nodeIndex, catalog, issues);
  issues.push(...findCycles(def, nodeIndex));
  if (catalog && def.nodes.length > 0 && !def.nodes.some((n) => catalog.get(n.type)?.kind === 'trigger')) {
    issues.push({ code: 'DEF-02/no-trigger', severity: 'warning', message: 'the workflow has no trigger, so it cannot be started' });
  }
  issues.push(...connectionWarnings(def, catalog));
  return issues;
}

/** Parses a raw definition and runs the graph rules; schema problems are reported with their path. */
export function validateWorkflowShape(raw: unknown, catalog?: NodeTypeCatalog): { definition: WorkflowDefinition | null; issues: ValidationIssue[] } {
  const parsed = WorkflowDefinition.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) =>
      error('DEF-02/schema', `${joinPath(i.path) || 'definition'}: ${i.message}`, { path: joinPath(i.path), nodeId: nodeIdAt(raw, i.path) }),
    );
    return { definition: null, issues };
  }
  return { definition: parsed.data, issues: validateGraph(parsed.data, catalog) };
}

function checkNodes(def: WorkflowDefinition, catalog: NodeTypeCatalog | undefined, issues: ValidationIssue[]): Map<string, number> {
  const index = new Map<string, number>();
  def.nodes.forEach((node, i) => {
    if (index.has(node.nodeId)) {
      issues.push(error('DEF-02/duplicate-node', `node id "${node.nodeId}" is used more than once`, { nodeId: node.nodeId, path: `nodes.${i}.nodeId` }));
    } else {
      index.set(node.nodeId, i);
    }
    if (catalog && !catalog.has(node.type)) {
      issues.push(error('DEF-02/unknown-type', `node "${node.nodeId}" has unknown type "${node.type}"`, { nodeId: node.nodeId, path: `nodes.${i}.type` }));
    }
    // A templated timeout is only known at the first message; the policy check then has nothing to compare with.
    const timeout = typeof node.timeoutSeconds === 'number' ? node.timeoutSeconds : undefined;
    checkPolicy(node.config['engine'], timeout, node.nodeId, `nodes.${i}.config.engine`, issues);
  });
  return index;
}

function checkEdges(def: WorkflowDefinition, nodeIndex: Map<string, number>, catalog: NodeTypeCatalog | undefined, issues: ValidationIssue[]): void {
  const seen = new Set<string>();
  def.edges.forEach((edge, i) => {
    const port = edge.sourcePort ?? DEFAULT_PORT;
    const key = `${edge.source}\u0000${port}\u0000${edge.target}\u0000${edge.targetPort ?? ''}`;
    if (seen.has(key)) {
      issues.push(
        error('DEF-02/duplicate-edge', `edge ${edge.source} → ${edge.target} is declared more than once`, {
          nodeId: edge.source,
          edgeIndex: i,
          path: `edges.${i}`,
        }),
      );
    }
    seen.add(key);
    for (const end of ['source', 'target'] as const) {
      if (!nodeIndex.has(edge[end])) {
        // The node at fault is the one whose edge dangles (the other end), when that one exists.
        const other = end === 'source' ? edge.target : edge.source;
        const nodeId = nodeIndex.has(other) ? other : undefined;
        issues.push(
          error('DEF-02/unknown-node', `edge ${i} ${end} "${edge[end]}" is not a node of this workflow`, { nodeId, edgeIndex: i, path: `edges.${i}.${end}` }),
        );
      }
    }
    const sourceNode = def.nodes[nodeIndex.get(edge.source) ?? -1];
    const targetNode = def.nodes[nodeIndex.get(edge.target) ?? -1];
    const sourceType = sourceNode && catalog?.get(sourceNode.type);
    const ports = sourceNode && sourceType ? outputPorts(sourceType, sourceNode.config) : null;
    if (sourceNode && ports && !ports.includes(port)) {
      const declared = ports.length ? ports.join(', ') : 'none';
      const hint = port === ERROR_PORT ? ' (set config.engine.onError to ROUTE to use the error port)' : '';
      issues.push(
        error('DEF-02/unknown-port', `node "${sourceNode.nodeId}" has no output port "${port}" (declared: ${declared})${hint}`, {
          nodeId: sourceNode.nodeId,
          edgeIndex: i,
          path: `edges.${i}.sourcePort`,
        }),
      );
    }
    const targetType = targetNode && catalog?.get(targetNode.type);
    if (targetNode && targetType?.kind === 'trigger') {
      issues.push(
        error('DEF-02/trigger-input', `trigger "${targetNode.nodeId}" takes no input (edge from "${edge.source}")`, {
          nodeId: targetNode.nodeId,
          edgeIndex: i,
          path: `edges.${i}.target`,
        }),
      );
    }
  });
}

function checkPolicy(raw: unknown, timeoutSeconds: number | undefined, nodeId: string, path: string, issues: ValidationIssue[]): void {
  if (raw === undefined) return;
  const parsed = EnginePolicy.safeParse(raw);
  if (!parsed.success) {
    for (const i of parsed.error.issues) {
      // An unknown key is reported at the key itself, one issue per key, so the path names the option.
      const at = i.code === 'unrecognized_keys' ? i.keys.map((k) => [...i.path, k]) : [i.path];
      for (const keyPath of at) {
        const option = joinPath(['engine', ...keyPath]);
        const message = i.code === 'unrecognized_keys' ? 'unknown option' : i.message;
        issues.push(error('DEF-02/policy', `node "${nodeId}" ${option}: ${message}`, { nodeId, path: joinPath([path, ...keyPath]) }));
      }
    }
    return;
  }
  const policy = parsed.data;
  const retry = policy.retry;
  if (retry?.retryOn && retry.noRetryOn) {
    const shared = retry.retryOn.filter((c) => retry.noRetryOn?.includes(c));
    if (shared.length) {
      issues.push(
        error('DEF-02/policy', `node "${nodeId}" engine.retry: retryOn and noRetryOn both name ${shared.join(', ')}`, {
          nodeId,
          path: `${path}.retry.noRetryOn`,
        }),
      );
    }
  }
  if (retry?.maxBackoffMs !== undefined && timeoutSeconds !== undefined && retry.maxBackoffMs >= timeoutSeconds * 1000) {
    issues.push(
      error(
        'DEF-02/policy',
        `node "${nodeId}" engine.retry.maxBackoffMs (${retry.maxBackoffMs}) must be below the node timeout (${timeoutSeconds * 1000} ms)`,
        { nodeId, path: `${path}.retry.maxBackoffMs` },
      ),
    );
  }
  if (policy.deadlineMs !== undefined && policy.elementTimeoutMs !== undefined && policy.deadlineMs <= policy.elementTimeoutMs) {
    issues.push(
      error('DEF-02/policy', `node "${nodeId}" engine.deadlineMs (${policy.deadlineMs}) must be above elementTimeoutMs (${policy.elementTimeoutMs})`, {
        nodeId,
        path: `${path}.deadlineMs`,
      }),
    );
  }
}

/** Reports each strongly connected set of nodes that forms a cycle, naming every node in it. */
function findCycles(def: WorkflowDefinition, nodeIndex: Map<string, number>): ValidationIssue[] {
  const children = new Map<string, Array<{ target: string; edgeIndex: number }>>();
  for (const id of nodeIndex.keys()) children.set(id, []);
  def.edges.forEach((e, edgeIndex) => {
    if (nodeIndex.has(e.source) && nodeIndex.has(e.target)) children.get(e.source)?.push({ target: e.target, edgeIndex });
  });
  const issues: ValidationIssue[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const reported = new Set<string>();
  // Iterative DFS: graphs may hold up to MAX_NODES nodes, recursion depth is not a concern but clarity is.
  const visit = (start: string): void => {
    const frames: Array<{ id: string; next: number }> = [{ id: start, next: 0 }];
    state.set(start, 'open');
    stack.push(start);
    while (frames.length) {
      const frame = frames[frames.length - 1]!;
      const kids = children.get(frame.id) ?? [];
      if (frame.next < kids.length) {
        const { target: child, edgeIndex } = kids[frame.next++]!;
        const s = state.get(child);
        if (s === 'open') {
          const cycle = stack.slice(stack.indexOf(child));
          const key = [...cycle].sort().join('\u0000');
          if (!reported.has(key)) {
            reported.add(key);
            const text = [...cycle, child].join(' → ');
            // The path names the edge that closes the cycle: removing it is one way out.
            issues.push(error('DEF-02/cycle', `the graph has a cycle: ${text}`, { nodeId: child, nodeIds: cycle, edgeIndex, path: `edges.${edgeIndex}` }));
          }
        } else if (s === undefined) {
          state.set(child, 'open');
          stack.push(child);
          frames.push({ id: child, next: 0 });
        }
      } else {
        state.set(frame.id, 'done');
        stack.pop();
        frames.pop();
      }
    }
  };
  for (const id of nodeIndex.keys()) if (!state.has(id)) visit(id);
  return issues;
}

function error(code: ValidationIssue['code'], message: string, extra: Omit<ValidationIssue, 'code' | 'severity' | 'message'> = {}): ValidationIssue {
  const issue: ValidationIssue = { code, severity: 'error', message };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) (issue as Record<string, unknown>)[k] = v;
  return issue;
}

function nodeIdAt(raw: unknown, path: ReadonlyArray<PropertyKey>): string | undefined {
  if (path[0] !== 'nodes' || typeof path[1] !== 'number' || !raw || typeof raw !== 'object') return undefined;
  const nodes = (raw as { nodes?: unknown }).nodes;
  const node = Array.isArray(nodes) ? (nodes[path[1]] as { nodeId?: unknown } | undefined) : undefined;
  return typeof node?.nodeId === 'string' ? node.nodeId : undefined;
}
