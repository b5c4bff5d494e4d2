#!/usr/bin/env node
// `npm run lint:electron` (and a step of `npm test`): runs @doyensec/electronegativity on the desktop app's
// Electron code (main/electron, main/preload and the main/ipc they use; tests and fakes left out) and fails
// on any finding not in scripts/electronegativity-allow.json, where each accepted finding carries its reason.
// Also fails when a file cannot be parsed (an unchecked file is not a clean one). Needs no network: the
// release-feed check (AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK) is left out; Electron's version is pinned in
// package.json and read from there.
//
// The bundles (dist/main/*.cjs, dist/renderer) are not scanned: electronegativity 1.10.3's Babel cannot
// parse their modern output (class private fields, static blocks) and would report them as unparsed; they
// are built from exactly these sources, and the built page's CSP is checked by main/electron/*.test.ts.
//
// Options: --json (print the findings as JSON), --keep (leave the staging folder), --allow <file> (another
// allow-list, for tests).
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['main/electron', 'main/preload', 'main/ipc'];
const EXCLUDED_CHECKS = ['AvailableSecurityFixesGlobalCheck'];
const argv = process.argv.slice(2);
const args = new Set(argv);
const ALLOW_FILE = argv.includes('--allow') ? argv[argv.indexOf('--allow') + 1] : join(ROOT, 'scripts', 'electronegativity-allow.json');

/** Shipped sources only: no tests, no test fakes. */
function isShipped(name) {
  return /\.(ts|tsx|js|mjs|cjs|html)$/.test(name) && !/\.test\.[jt]sx?$/.test(name) && !name.startsWith('fake-');
}

function stage() {
  const dir = mkdtempSync(join(tmpdir(), 'yukta-electronegativity-'));
  let files = 0;
  for (const source of SOURCES) {
    const target = join(dir, source);
    mkdirSync(target, { recursive: true });
    for (const name of readdirSync(join(ROOT, source))) {
      if (!isShipped(name)) continue;
      copyFileSync(join(ROOT, source, name), join(target, name));
      files += 1;
    }
  }
  return { dir, files };
}

function electronVersion() {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  return String(pkg.devDependencies?.electron ?? pkg.dependencies?.electron ?? '').replace(/^[^\d]*/, '');
}

function loadAllowList() {
  const list = JSON.parse(readFileSync(ALLOW_FILE, 'utf8'));
  if (!Array.isArray(list.allow)) throw new Error(`${ALLOW_FILE}: "allow" must be an array`);
  for (const [i, entry] of list.allow.entries()) {
    if (!entry.id || !entry.file || typeof entry.reason !== 'string' || entry.reason.trim().length < 20) {
      throw new Error(`${ALLOW_FILE}: allow[${i}] needs an id, a file and a reason (at least 20 characters)`);
    }
  }
  return list.allow;
}

function matches(entry, finding) {
  return entry.id === finding.id && entry.file === finding.file && (entry.sample === undefined || (finding.sample ?? '').includes(entry.sample));
}

async function main() {
  const allow = loadAllowList();
  const require = createRequire(import.meta.url);
  const engModule = require('@doyensec/electronegativity');
  const run = engModule.default ?? engModule;
  const { dir, files } = stage();
  // electronegativity logs an i18n notice through console.log; keep stdout for our report.
  const log = console.log;
  console.log = (...a) => process.stderr.write(`${a.join(' ')}\n`);
  let result;
  try {
    result = await run({
      input: dir,
      isRelative: true,
      electronVersionOverride: electronVersion(),
      excludeFromScan: EXCLUDED_CHECKS,
      parserPlugins: ['optionalChaining'],
    });
  } finally {
    console.log = log;
    if (!args.has('--keep')) rmSync(dir, { recursive: true, force: true });
  }
  const findings = result.issues.map((issue) => ({
    id: issue.id,
    file: issue.file === 'N/A' ? 'N/A' : relative(dir, join(dir, issue.file)).split('\\').join('/'),
    line: issue.location?.line ?? 0,
    sample: issue.sample ?? null,
    severity: issue.severity?.name,
    confidence: issue.confidence?.name,
    manualReview: Boolean(issue.manualReview),
  }));
  const unparsed = result.errors.filter((e) => !e.tolerable);
  const used = new Set();
  const unexplained = [];
  for (const finding of findings) {
    const index = allow.findIndex((entry) => matches(entry, finding));
    if (index === -1) unexplained.push(finding);
    else used.add(index);
  }
  const stale = allow.filter((_e, i) => !used.has(i));

  if (args.has('--json')) log(JSON.stringify({ files, checks: { global: result.globalChecks, atomic: result.atomicChecks }, findings, unparsed }, null, 2));
  log(
    `electronegativity: ${files} files, ${result.globalChecks} global + ${result.atomicChecks} atomic checks; ${findings.length} findings, ${findings.length - unexplained.length} justified in ${relative(ROOT, ALLOW_FILE)}, ${unexplained.length} unexplained, ${unparsed.length} unparsed files`,
  );
  for (const f of unexplained) log(`  UNEXPLAINED ${f.id} ${f.file}:${f.line} [${f.severity}/${f.confidence}] ${f.sample ?? ''}`);
  for (const e of unparsed) log(`  UNPARSED ${relative(dir, e.file)}: ${e.message}`);
  for (const s of stale) log(`  note: allow-list entry no longer needed: ${s.id} ${s.file}`);
  process.exit(unexplained.length || unparsed.length ? 1 : 0);
}

main().catch((error) => {
  console.error(`electronegativity: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
});
