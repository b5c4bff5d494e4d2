import { checkJsonLimits, DEFAULT_MAX_DEPTH, describeJsonProblem } from '../../../shared/json/json-limits';
import type { WorkflowDefinition } from '../../../shared/workflow/definition.schema';
import { validateWorkflowShape } from '../../../shared/workflow/graph-validation';
import type { NodeTypeCatalog } from '../../../shared/workflow/node-type';
import type { ValidationIssue } from '../../../shared/workflow/validation-issue';

/** Largest workflow file accepted by Import (1 MiB). */
export const MAX_IMPORT_BYTES = 1024 * 1024;

/** Why an imported file is refused: a code, and the node and path at fault when there are. */
export interface ImportRefusal {
  code: string;
  message: string;
  nodeId?: string;
  path?: string;
}

export type ImportCheck = { ok: true; definition: WorkflowDefinition } | { ok: false; reasons: ImportRefusal[] };

/**
 * Checks an imported file before anything changes: size, JSON, nesting depth and prototype keys, workflow
 * shape and the DEF-02 graph rules (with the catalog when known). Warnings (e.g. no trigger) do not refuse a file.
 */
export function checkWorkflowFile(text: string, byteSize: number, catalog?: NodeTypeCatalog): ImportCheck {
  if (byteSize > MAX_IMPORT_BYTES) {
    return refuse({ code: 'IMPORT/too-large', message: `the file is ${formatBytes(byteSize)}; a workflow file is at most ${formatBytes(MAX_IMPORT_BYTES)}` });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return refuse({ code: 'IMPORT/not-json', message: `the file is not JSON (${error instanceof Error ? error.message : String(error)})` });
  }
  // Before anything walks it recursively (the schema, the canvas, the config form): nesting and prototype keys (SEC-03).
  const problem = checkJsonLimits(raw, { maxDepth: DEFAULT_MAX_DEPTH, forbidPrototypeKeys: true });
  if (problem !== null)
    return refuse({ code: problem.kind === 'key' ? 'IMPORT/forbidden-key' : 'IMPORT/too-deep', message: describeJsonProblem(problem), path: problem.path });
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || !('nodes' in raw) || !('workflowId' in raw)) {
    return refuse({ code: 'IMPORT/not-a-workflow', message: 'the file is JSON but not a workflow definition (it needs "workflowId" and "nodes")' });
  }
  const { definition, issues } = validateWorkflowShape(raw, catalog);
  const errors = issues.filter((i) => i.severity === 'error');
  if (!definition || errors.length > 0) return { ok: false, reasons: errors.map(refusalOf) };
  return { ok: true, definition };
}

export function refusalOf(issue: ValidationIssue): ImportRefusal {
  const reason: ImportRefusal = { code: issue.code, message: issue.message };
  const nodeId = issue.nodeId ?? issue.nodeIds?.[0];
  if (nodeId !== undefined) reason.nodeId = nodeId;
  if (issue.path !== undefined) reason.path = issue.path;
  return reason;
}

/** One line per reason: `DEF-02/cycle · node "a" · edges: the graph has a cycle: a → b → a`. */
export function describeRefusal(reason: ImportRefusal): string {
  const where = [reason.nodeId !== undefined ? `node "${reason.nodeId}"` : null, reason.path ? `at ${reason.path}` : null].filter(Boolean).join(' ');
  return `${reason.code}${where ? ` · ${where}` : ''}: ${reason.message}`;
}

/** The exported file: the definition, pretty-printed, ending with a newline. */
export function workflowFileText(definition: WorkflowDefinition): string {
  return `${JSON.stringify(definition, null, 2)}\n`;
}

/** File name of an export: `<workflowId>.json` (`workflow.json` while the id is empty). */
export function exportFileName(workflowId: string): string {
  return `${workflowId.trim() || 'workflow'}.json`;
}

function refuse(reason: ImportRefusal): ImportCheck {
  return { ok: false, reasons: [reason] };
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}
