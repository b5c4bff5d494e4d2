import { describe, expect, it } from 'vitest';
import { checkWorkflowFile } from './workflow-file';

describe('SEC-03 studio import: nesting depth and prototype keys are refused before anything walks the file', () => {
  it('refuses a config nested 100,000 levels, naming where (the schema and the canvas never see it)', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const text = `{"workflowId":"w","nodes":[{"nodeId":"t","type":"API_TRIGGER","config":{"x":${deep}}}]}`;
    expect(checkWorkflowFile(text, text.length)).toEqual({
      ok: false,
      reasons: [
        { code: 'IMPORT/too-deep', message: 'nodes.0.config.x.0.0… nests deeper than 128 levels (yukta.execution.max-depth)', path: 'nodes.0.config.x.0.0…' },
      ],
    });
  });

  it('refuses __proto__, constructor and prototype keys anywhere, config included', () => {
    const text = '{"workflowId":"w","nodes":[{"nodeId":"t","type":"API_TRIGGER","config":{"a":{"__proto__":{"polluted":true}}}}]}';
    expect(checkWorkflowFile(text, text.length)).toEqual({
      ok: false,
      reasons: [{ code: 'IMPORT/forbidden-key', message: 'key __proto__ is not allowed at nodes.0.config.a', path: 'nodes.0.config.a' }],
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
