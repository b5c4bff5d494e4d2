import { WorkflowDefinition } from '../../../shared/workflow/definition.schema';

/** An example workflow shipped in `assets/examples` (bundled, so it works offline and over both transports). */
export interface Example {
  id: string;
  title: string;
  description: string;
  nodeCount: number;
  definition: WorkflowDefinition;
}

/** The issue-15 set first (approval, HTTP retry, fan-out, cron, LLM), then the older small ones. */
const ORDER = ['order-approval', 'http-fetch-retry', 'fan-out-aggregate', 'cron-digest', 'llm-triage', 'hello-world', 'order-routing', 'order-fan-out'];

const files = import.meta.glob<unknown>('../../../assets/examples/*.json', { eager: true, import: 'default' });

function titleOf(id: string): string {
  const words = id
    .replace(/-/g, ' ')
    .replace(/\bhttp\b/i, 'HTTP')
    .replace(/\bllm\b/i, 'LLM');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function rank(id: string): number {
  const at = ORDER.indexOf(id);
  return at < 0 ? ORDER.length : at;
}

/** Every example, parsed with the shared definition schema (a broken file is a build-time test failure). */
export const EXAMPLES: readonly Example[] = Object.values(files)
  .map((json) => WorkflowDefinition.parse(json))
  .map((definition) => ({
    id: definition.workflowId,
    title: titleOf(definition.workflowId),
    description: definition.description,
    nodeCount: definition.nodes.length,
    definition,
  }))
  .sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));

/** An id not taken in the session: `order-approval`, else `order-approval-2`, `-3`, … */
export function copyIdFor(id: string, taken: ReadonlySet<string>): string {
  if (!taken.has(id)) return id;
  for (let n = 2; ; n++) if (!taken.has(`${id}-${n}`)) return `${id}-${n}`;
}
