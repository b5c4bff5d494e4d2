// npm run lint (tests:placement): a test named after a source file sits beside it. For each `*.test.ts(x)`
// whose name (`x.test.ts` → `x`) is a source file's (`x.ts`, `x.tsx`, `x.mjs`…) somewhere else, and no source
// of that name is beside it, fail naming both. Tests named after a card or a behaviour match no source: fine.
// `--root DIR` checks another tree (its test).
import { readdirSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const ROOT = argv.includes('--root') ? argv[argv.indexOf('--root') + 1] : join(dirname(fileURLToPath(import.meta.url)), '..');
const SKIP_DIRS = new Set(['node_modules', 'dist', 'out', 'test-results', 'playwright-report', 'coverage']);
const TEST = /\.test\.tsx?$/;
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const NOT_SOURCE = /\.(test|spec|contract)\.[^.]+$|\.d\.ts$/;
/** Benchmarks and e2e specs are named after the behaviour they measure or drive, like a test may be: not sources. */
const NOT_SOURCE_DIRS = /^(bench|e2e)\//;

/** Every file under `dir`, relative to the root, skipping build output, dependencies and dot folders. */
function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIP_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield relative(ROOT, path);
  }
}

/** The name a file is known by: `a/b/worker-registry.ts` → `worker-registry`. */
const stemOf = (file) => basename(file).replace(TEST, '').replace(SOURCE, '');

function misplacedTests(files) {
  const sourcesByStem = new Map();
  for (const file of files) {
    if (!SOURCE.test(file) || NOT_SOURCE.test(file) || NOT_SOURCE_DIRS.test(file)) continue;
    const stem = stemOf(file);
    sourcesByStem.set(stem, [...(sourcesByStem.get(stem) ?? []), file]);
  }
  const problems = [];
  for (const test of files.filter((f) => TEST.test(f))) {
    const sources = sourcesByStem.get(stemOf(test)) ?? [];
    if (sources.length === 0 || sources.some((s) => dirname(s) === dirname(test))) continue;
    problems.push(`${test} is named after ${sources.join(', ')} but does not sit beside it: move it there, or name it after what it tests`);
  }
  return problems;
}

const problems = misplacedTests([...filesUnder(ROOT)].map((f) => f.split('\\').join('/')));
for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
console.log('tests:placement: every test named after a source file sits beside it');
