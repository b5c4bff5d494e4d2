import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkReference, checkSettingsTable, listSourceFiles } from './reference-check';

async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'yukta-ref-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

const card = (id: string, source: string, extra = '') => `### ${id}: Thing\n\n**Status:** partial\n\n${extra}\n\n**Source:** \`${source}\`\n`;

describe('Reference page check', () => {
  it('passes a consistent page', async () => {
    const root = await tree({ 'engine/a.ts': "const k = 'yukta.engine.channel-capacity';\n" });
    const page = card('ENG-01', 'engine/a.ts', '**Configure:** `yukta.engine.channel-capacity` (64)');
    expect(checkReference(root, page, listSourceFiles(root, ['engine']))).toEqual([]);
  });

  it('fails on a cited file that does not exist', async () => {
    const root = await tree({ 'engine/a.ts': '' });
    const problems = checkReference(root, card('ENG-01', 'engine/gone.ts'), []);
    expect(problems.map((p) => p.kind)).toEqual(['missing-source']);
  });

  it('fails on a yukta.* setting used in code but missing from the page', async () => {
    const root = await tree({ 'engine/a.ts': "const k = 'yukta.secret.knob';\n", 'engine/a.test.ts': "'yukta.only.in.tests'" });
    const problems = checkReference(root, card('ENG-01', 'engine/a.ts'), listSourceFiles(root, ['engine']));
    expect(problems).toEqual([{ kind: 'undocumented-setting', message: 'yukta.secret.knob is used in engine/a.ts but not documented in docs/reference.md' }]);
  });

  it('fails on a repeated ID and a card without status', async () => {
    const root = await tree({ 'engine/a.ts': '' });
    const page = `${card('ENG-01', 'engine/a.ts')}\n${card('ENG-01', 'engine/a.ts')}\n### ENG-02: No status\n\ntext\n`;
    expect(
      checkReference(root, page, [])
        .map((p) => p.kind)
        .sort(),
    ).toEqual(['duplicate-id', 'missing-status']);
  });
});

describe('CFG-01 reference settings table check', () => {
  const START = '<!-- settings-table:start -->';
  const END = '<!-- settings-table:end -->';
  const generated = [START, '| key | default |', '| - | - |', '| `yukta.a.b` | `1` |', '| `yukta.c.d` | `2` |', END];
  const page = (rows: string[]) => ['# page', START, '| key | default |', '| - | - |', ...rows, END, 'after'].join('\n');

  it('passes a page whose table is the generated one', () => {
    expect(checkSettingsTable(page(['| `yukta.a.b` | `1` |', '| `yukta.c.d` | `2` |']), generated)).toEqual([]);
  });

  it('fails both ways: a key only in code, a key only on the page', () => {
    expect(checkSettingsTable(page(['| `yukta.a.b` | `1` |', '| `yukta.x.y` | `2` |']), generated)).toEqual([
      { kind: 'settings-table', message: "yukta.c.d is in the settings table in code but not in the page's settings table" },
      { kind: 'settings-table', message: "yukta.x.y is in the page's settings table but not in the settings table in code" },
    ]);
  });

  it('fails on a stale row and on a page without the table', () => {
    expect(checkSettingsTable(page(['| `yukta.a.b` | `5` |', '| `yukta.c.d` | `2` |']), generated)).toEqual([
      { kind: 'settings-table', message: 'the settings table is not current: run npm run docs:settings' },
    ]);
    expect(checkSettingsTable('# page', generated).map((p) => p.kind)).toEqual(['settings-table']);
  });
});
