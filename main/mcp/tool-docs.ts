import { OPERATION_NAMES, STUDIO_API } from '../../shared/api/contract';
import { MCP_TOOL_DECISIONS } from './tool-decisions';

/** The generated part of docs/mcp.md sits between these lines (`npm run docs:mcp` rewrites it). */
export const TOOLS_BEGIN = '<!-- mcp-tools:begin: generated from main/mcp/tool-decisions.ts by `npm run docs:mcp`; do not edit by hand -->';
export const TOOLS_END = '<!-- mcp-tools:end -->';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The tool list and the operations kept from agents, as Markdown tables, from the contract and the decisions. */
export function renderToolsSection(): string {
  const tools: string[] = [];
  const kept: string[] = [];
  for (const operation of OPERATION_NAMES) {
    const { summary, role } = STUDIO_API[operation];
    const decision = MCP_TOOL_DECISIONS[operation];
    if ('tool' in decision) tools.push(`| \`${decision.tool}\` | ${role} | ${cell([summary, decision.hint].filter(Boolean).join(' '))} |`);
    else kept.push(`| \`${operation}\` | ${role} | ${cell(decision.notForAgents)} |`);
  }
  return [
    `${tools.length} tools, one per operation offered to agents (of the contract's ${OPERATION_NAMES.length}); each needs the role shown.`,
    '',
    '| Tool | Role | What it does |',
    '| - | - | - |',
    ...tools,
    '',
    `Not offered to agents (${kept.length}); they stay on REST and in the studio:`,
    '',
    '| Operation | Role | Why not |',
    '| - | - | - |',
    ...kept,
  ].join('\n');
}

/** The page with its generated section replaced by the current one; throws when the markers are missing. */
export function withToolsSection(page: string): string {
  const begin = page.indexOf(TOOLS_BEGIN);
  const end = page.indexOf(TOOLS_END);
  if (begin < 0 || end < begin) throw new Error(`docs/mcp.md needs the lines ${TOOLS_BEGIN} and ${TOOLS_END} around the tool list`);
  return `${page.slice(0, begin + TOOLS_BEGIN.length)}\n${renderToolsSection()}\n${page.slice(end)}`;
}
