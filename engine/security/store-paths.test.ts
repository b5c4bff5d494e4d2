import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import { identifierProblem } from '../../shared/workflow/identifier';
import { contentHash } from '../definitions/content-hash';
import { FileCheckpointStore } from '../store/file/file-checkpoint-store';
import { FileDefinitionStore } from '../store/file/file-definition-store';
import { encodeName } from '../store/file/file-names';

/**
 * SEC-03 property: whatever id reaches a file store — even one the contract's schemas would refuse — the
 * paths it resolves stay inside the data folder. Ids are built from traversal fragments as well as arbitrary
 * Unicode, so `..`, separators, `%2e`, NUL, drive letters and UNC prefixes come up often.
 */
const FRAGMENTS = [
  '..',
  '.',
  '/',
  '\\',
  '%2e',
  '%2E',
  '%2f',
  '%5c',
  '%00',
  '\u0000',
  'C:',
  '\\\\',
  '~',
  'etc',
  'passwd',
  'a',
  ' ',
  '\u202e',
  '%25',
  '@',
  'con',
  'NUL',
];
const nastyId = fc.oneof(
  fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
);

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
};

function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    out.push(path);
    if (entry.isDirectory()) out.push(...allFiles(path));
  }
  return out;
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('SEC-03 store paths stay inside the data folder (property)', () => {
  it('an encoded id is always one plain name directly inside its parent', () => {
    const root = join(tmpdir(), 'yukta-data');
    fc.assert(
      fc.property(nastyId, (id) => {
        const name = encodeName(id);
        const path = join(root, name);
        expect(dirname(path)).toBe(root);
        expect(basename(path)).toBe(name);
        expect(name).not.toMatch(/[/\\\0]|^\.{1,2}$/);
      }),
      { numRuns: 2000 },
    );
  });

  it('the identifier rule refuses what the URL layer or a file system would treat as a path step', () => {
    fc.assert(
      fc.property(nastyId, (id) => {
        if (identifierProblem(id) !== null) return;
        expect(id).not.toMatch(/[/\\\0%]|\.\./);
        expect(id).not.toBe('.');
      }),
      { numRuns: 2000 },
    );
  });

  it('definitions and checkpoints saved under any ids land inside the data folder, nothing beside it', async () => {
    const base = mkdtempSync(join(tmpdir(), 'yukta-store-paths-'));
    roots.push(base);
    const data = join(base, 'data');
    writeFileSync(join(base, 'beside.txt'), 'x');
    const definitions = new FileDefinitionStore(data);
    const checkpoints = new FileCheckpointStore({ dir: join(data, 'checkpoints') });
    let saved = 0;
    await fc.assert(
      fc.asyncProperty(nastyId, nastyId, async (session, workflowId) => {
        // Straight to the store, past the schemas: the store's own naming must hold on its own.
        const definition = { workflowId, nodes: [], edges: [] } as unknown as WorkflowDefinition;
        try {
          await definitions.save(session, definition, { version: contentHash(definition), savedAt: 1 });
          saved += 1;
        } catch (error) {
          // A name too long for the file system is refused by it; that is not an escape.
          expect(String(error)).toMatch(/ENAMETOOLONG|EINVAL|EILSEQ/);
        }
        try {
          checkpoints.append(session, workflowId, { port: 'out', payload: 1, metadata: {} });
          checkpoints.markDone(session, workflowId, 'SUCCESS');
          await checkpoints.flush();
        } catch (error) {
          expect(String(error)).toMatch(/ENAMETOOLONG|EINVAL|EILSEQ/);
        }
      }),
      { numRuns: 150 },
    );
    await checkpoints.close();
    const files = allFiles(base);
    expect(files.filter((f) => !inside(data, f) && f !== data && f !== join(base, 'beside.txt'))).toEqual([]);
    expect(readdirSync(base).sort()).toEqual(['beside.txt', 'data']);
    expect(saved).toBeGreaterThan(100);
  });
});
