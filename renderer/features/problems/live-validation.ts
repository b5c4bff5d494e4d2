import { useEffect } from 'react';
import { validateWorkflowShape } from '../../../shared/workflow/graph-validation';
import { identifierProblem } from '../../../shared/workflow/identifier';
import type { NodeTypeCatalog } from '../../../shared/workflow/node-type';
import type { ValidationIssue } from '../../../shared/workflow/validation-issue';
import { toDefinition, type StudioEdge, type StudioNode } from '../../store/graph-model';
import { useProblems } from '../../store/problems-store';
import { useStudio, type StudioState } from '../../store/studio-store';

/** Placeholder id while the workflow id is empty or invalid (that problem is shown at the id field). */
const PLACEHOLDER_ID = 'untitled';

/** DEF-02 rules on the open graph, with the shared validator (the server applies the same rules on save). */
export function validateOpenGraph(
  state: Pick<StudioState, 'workflowId' | 'description' | 'nodes' | 'edges'>,
  catalog: NodeTypeCatalog | undefined,
): ValidationIssue[] {
  const workflowId = identifierProblem(state.workflowId) ? PLACEHOLDER_ID : state.workflowId;
  const definition = toDefinition({ ...state, workflowId });
  return validateWorkflowShape(definition, catalog).issues;
}

/**
 * Keeps the problems store in step with the graph. Re-validates only when the structure changes
 * (ids, types, config, labels, edges, catalog) — not on every drag frame or selection.
 */
export function useLiveValidation(studio = useStudio, problems = useProblems): void {
  useEffect(() => {
    let last: StructureKey | null = null;
    const check = (state: StudioState) => {
      const key = structureKey(state);
      if (last && sameStructure(last, key)) return;
      last = key;
      const catalog = state.catalogState === 'ready' ? state.typeCatalog : undefined;
      problems.getState().setIssues(validateOpenGraph(state, catalog));
    };
    check(studio.getState());
    return studio.subscribe(check);
  }, [studio, problems]);
}

interface StructureKey {
  nodes: ReadonlyArray<{ id: string; data: StudioNode['data'] }>;
  edges: readonly StudioEdge[];
  catalog: NodeTypeCatalog;
  catalogReady: boolean;
}

function structureKey(state: StudioState): StructureKey {
  return {
    nodes: state.nodes.map((n) => ({ id: n.id, data: n.data })),
    edges: state.edges,
    catalog: state.typeCatalog,
    catalogReady: state.catalogState === 'ready',
  };
}

function sameStructure(a: StructureKey, b: StructureKey): boolean {
  if (a.catalog !== b.catalog || a.catalogReady !== b.catalogReady || a.nodes.length !== b.nodes.length) return false;
  if (a.edges !== b.edges && !sameEdges(a.edges, b.edges)) return false;
  return a.nodes.every((n, i) => n.id === b.nodes[i]!.id && n.data === b.nodes[i]!.data);
}

function sameEdges(a: readonly StudioEdge[], b: readonly StudioEdge[]): boolean {
  return (
    a.length === b.length &&
    a.every((e, i) => {
      const o = b[i]!;
      return e.source === o.source && e.target === o.target && e.sourceHandle === o.sourceHandle && e.data?.targetPort === o.data?.targetPort;
    })
  );
}
