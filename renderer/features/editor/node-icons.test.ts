import { describe, expect, it } from 'vitest';
import { nodeTypeIcon } from './node-icons';

const BUILTIN = [
  'API_TRIGGER',
  'MANUAL_TRIGGER',
  'CRON_TRIGGER',
  'TRANSFORM',
  'ROUTER',
  'DELAY',
  'SPLIT',
  'AGGREGATE',
  'SUB_WORKFLOW',
  'WAIT_FOR_SIGNAL',
  'HTTP_REQUEST',
  'LLM_CALL',
  'MCP_TOOL_CALL',
  'SCRIPT',
  'PROCESS_EXECUTOR',
  'CONSOLE_TERMINAL',
  'RESULT_TERMINAL',
];

describe('issue 15 item 11: an icon per node type', () => {
  it('gives each of the 17 built-in types its own icon (the 12 processors no longer share one)', () => {
    const icons = BUILTIN.map((t) => nodeTypeIcon(t, 'processor'));
    expect(new Set(icons).size).toBe(BUILTIN.length);
  });

  it('an unknown plugin type shows its kind icon', () => {
    expect(nodeTypeIcon('MY_PLUGIN', 'terminal')).toBe(nodeTypeIcon('OTHER', 'terminal'));
    expect(nodeTypeIcon('MY_PLUGIN', 'terminal')).not.toBe(nodeTypeIcon('MY_PLUGIN', 'trigger'));
  });
});
