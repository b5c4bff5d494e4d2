import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../shared/api/contract';
import { MCP_TOOLS, notForAgentsReason, toolNamed } from './mcp-tools';
import { EXPOSED_TOOL_NAMES } from './mcp-test-support';
import { withToolsSection } from './tool-docs';
import { MCP_TOOL_DECISIONS } from './tool-decisions';

/** Tool names as the MCP specification allows them (SEP-986). */
const TOOL_NAME = /^[A-Za-z0-9._-]{1,128}$/;

describe('EXT-04 a decision per contract operation: an MCP tool, or not for agents with the reason', () => {
  it('holds exactly one decision per operation of the table', () => {
    expect(Object.keys(MCP_TOOL_DECISIONS).sort()).toEqual([...OPERATION_NAMES].sort());
    // An operation added to the table without a decision does not compile:
    const { 'runs.wait': _undecided, ...incomplete } = MCP_TOOL_DECISIONS;
    // @ts-expect-error -- 'runs.wait' is missing
    const table: typeof MCP_TOOL_DECISIONS = incomplete;
    expect(Object.keys(table)).toHaveLength(OPERATION_NAMES.length - 1);
  });

  it('exposes what an agent needs, under valid unique names, and gives a reason for every operation it keeps back', () => {
    expect(MCP_TOOLS.map((t) => t.name).sort()).toEqual(EXPOSED_TOOL_NAMES);
    for (const needed of [
      'workflows.list',
      'workflows.get',
      'workflows.save',
      'workflows.validate',
      'runs.start',
      'runs.get',
      'runs.list',
      'runs.wait',
      'control.send',
      'approvals.list',
      'signals.send',
      'scheduler.get',
      'scheduler.setLimits',
      'metrics.get',
      'control.audit',
    ]) {
      expect(toolNamed(needed)?.operation, needed).toBe(needed);
    }
    for (const tool of MCP_TOOLS) expect(tool.name, tool.name).toMatch(TOOL_NAME);
    expect(new Set(MCP_TOOLS.map((t) => t.name)).size).toBe(MCP_TOOLS.length);
    const kept = OPERATION_NAMES.filter((op) => !EXPOSED_TOOL_NAMES.includes(op)).sort();
    expect(kept).toEqual([
      'apiKeys.create',
      'apiKeys.list',
      'apiKeys.revoke',
      'breakpoints.get',
      'breakpoints.set',
      'ha.status',
      'secrets.delete',
      'secrets.list',
      'secrets.set',
      'sessions.applyConfig',
      'sessions.delete',
      'sessions.rename',
      'settings.set',
      'supervisors.setRules',
      'workflows.delete',
    ]);
    for (const op of kept) expect(notForAgentsReason(op)?.length, op).toBeGreaterThan(40);
    expect(notForAgentsReason('runs.start')).toBeUndefined();
  });

  it('describes each tool with its summary and role, and takes the input JSON Schema from the zod schema', () => {
    const wait = toolNamed('runs.wait')!;
    expect(wait.description).toMatch(/^Wait until a run ends .* Needs role VIEWER\.$/);
    expect(wait.inputSchema).toEqual({
      type: 'object',
      properties: { executionId: { type: 'string' }, timeoutSeconds: { type: 'integer', minimum: 0, maximum: 300, default: 30 } },
      required: ['executionId'],
      additionalProperties: false,
    });
    expect(wait.readOnly).toBe(true);
    const start = toolNamed('runs.start')!;
    expect(start).toMatchObject({ role: 'OPERATOR', readOnly: false });
    expect(start.inputSchema.properties).toMatchObject({ session: { type: 'string', default: 'default' }, payload: { type: 'object', default: {} } });
    const send = toolNamed('control.send')!;
    expect(JSON.stringify(send.inputSchema)).toContain('"PauseWorkflow"');
    for (const tool of MCP_TOOLS) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.description, tool.name).toContain(`Needs role ${tool.role}.`);
    }
  });
});

describe('EXT-04 docs/mcp.md lists the tools generated from the table', () => {
  it('is current (run `npm run docs:mcp` after changing the contract or a decision)', () => {
    const page = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8');
    expect(page).toBe(withToolsSection(page));
    expect(page).toContain('| `runs.start` | OPERATOR | Start a run of a saved workflow with a payload.');
    expect(page).toContain('| `secrets.set` | ADMIN | secret values would pass through');
  });
});
