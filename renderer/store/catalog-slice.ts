import type { StateCreator } from 'zustand';
import type { SessionSummary } from '../../shared/api/sessions.schema';
import type { WorkflowSummary } from '../../shared/api/workflows.schema';
import type { NodeTypeCatalog, NodeTypeInfo } from '../../shared/workflow/node-type';
import type { StudioState } from './studio-store';

/** What the server offers: node types (palette, handles, validation) and saved workflows (picker). */
export interface CatalogSlice {
  nodeTypes: NodeTypeInfo[];
  nodeTypesByType: Record<string, NodeTypeInfo>;
  /** For `validateGraph`. */
  typeCatalog: NodeTypeCatalog;
  catalogState: 'loading' | 'ready' | 'error';
  catalogError: string | null;
  workflows: WorkflowSummary[];
  /** Sessions for the picker (STU-07); `default` always exists. */
  sessions: SessionSummary[];
  setSessions(sessions: SessionSummary[]): void;
  setNodeTypes(types: NodeTypeInfo[]): void;
  setCatalogError(message: string): void;
  setWorkflows(workflows: WorkflowSummary[]): void;
}

export const createCatalogSlice: StateCreator<StudioState, [], [], CatalogSlice> = (set) => ({
  nodeTypes: [],
  nodeTypesByType: {},
  typeCatalog: new Map(),
  catalogState: 'loading',
  catalogError: null,
  workflows: [],
  sessions: [],
  setSessions: (sessions) => set({ sessions }),
  setNodeTypes: (types) =>
    set({
      nodeTypes: types,
      nodeTypesByType: Object.fromEntries(types.map((t) => [t.type, t])),
      typeCatalog: new Map(types.map((t) => [t.type, { kind: t.kind, outputs: t.outputs, outputsFromConfig: t.outputsFromConfig }])),
      catalogState: 'ready',
      catalogError: null,
    }),
  setCatalogError: (message) => set({ catalogState: 'error', catalogError: message }),
  setWorkflows: (workflows) => set({ workflows }),
});
