import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinPlugins } from '../plugins/builtin';
import { PluginRegistry } from '../plugins/registry';
import { validateDefinition } from './validate-definition';

const DIR = join(import.meta.dirname, '../../assets/examples');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.json'));

describe('issue 15 item 7: every example in assets/examples validates (DEF-02, the engine validator)', () => {
  it('there are at least eight examples (the five of issue 15 and the three before them)', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(8);
  });

  it.each(FILES)('%s has no validation error and is named after its file', (file) => {
    const raw: unknown = JSON.parse(readFileSync(join(DIR, file), 'utf8'));
    const { definition, issues } = validateDefinition(raw, new PluginRegistry(builtinPlugins()));
    expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(definition?.workflowId).toBe(file.replace(/\.json$/, ''));
  });
});
