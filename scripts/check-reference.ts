// Fails when docs/reference.md drifts from the code (run by `npm test`).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkReference, listSourceFiles } from './reference-check';

const root = resolve(import.meta.dirname, '..');
const page = readFileSync(resolve(root, 'docs/reference.md'), 'utf8');
const problems = checkReference(root, page, listSourceFiles(root, ['shared', 'engine', 'main', 'renderer']));
for (const p of problems) console.error(`reference: ${p.kind}: ${p.message}`);
if (problems.length) {
  console.error(`docs/reference.md: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log('docs/reference.md is consistent with the code');
