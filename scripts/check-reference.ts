// Fails when docs/reference.md drifts from the code (run by `npm test`).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkReference, checkSettingsTable, listSourceFiles } from './reference-check';
import { settingsTableLines } from './settings-table';

const root = resolve(import.meta.dirname, '..');
const page = readFileSync(resolve(root, 'docs/reference.md'), 'utf8');
const problems = [
  ...checkReference(root, page, listSourceFiles(root, ['shared', 'engine', 'main', 'renderer'])),
  ...checkSettingsTable(page, settingsTableLines()),
];
for (const p of problems) console.error(`reference: ${p.kind}: ${p.message}`);
if (problems.length) {
  console.error(`docs/reference.md: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log('docs/reference.md is consistent with the code');
