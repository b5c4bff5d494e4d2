import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Card heading of the reference page: `### GROUP-NN: name`. */
const CARD = /^### ([A-Z]{2,4}-\d{2}): (.+)$/;
const STATUSES = ['stable', 'partial', 'planned', 'optional'];
/** A `yukta.*` setting, metric or payload key as written in code and docs. */
const SETTING = /\byukta\.[a-z][a-zA-Z0-9-]*(?:\.[a-zA-Z0-9<>-]+)*/g;
/** `yukta.mjs` and the like are file names, not settings. */
const FILE_NAME = /\.(mjs|cjs|js|ts|tsx|json)$/;
/** A backticked path in a card's Source line. */
const SOURCE_PATH = /`([A-Za-z0-9_.\-/]+\.(?:ts|tsx|mjs|cjs|js|json|yml|md))`/g;

export interface ReferenceProblem {
  kind: 'duplicate-id' | 'missing-status' | 'missing-source' | 'undocumented-setting' | 'no-cards' | 'settings-table';
  message: string;
}

/**
 * Checks docs/reference.md against the tree (SPEC "Reference page"): IDs unique, each card has a status,
 * every cited source file exists, every `yukta.*` name used in the code appears on the page.
 */
export function checkReference(root: string, page: string, sourceFiles: string[]): ReferenceProblem[] {
  const problems: ReferenceProblem[] = [];
  const lines = page.split('\n');
  const seen = new Set<string>();
  let cards = 0;
  lines.forEach((line, i) => {
    const card = CARD.exec(line);
    if (!card) return;
    cards++;
    const id = card[1]!;
    if (seen.has(id)) problems.push({ kind: 'duplicate-id', message: `line ${i + 1}: card ${id} appears more than once` });
    seen.add(id);
    const status = lines.slice(i + 1, i + 4).find((l) => l.startsWith('**Status:**'));
    const value = status?.replace('**Status:**', '').trim().split(/\s/)[0];
    if (!value || !STATUSES.includes(value))
      problems.push({ kind: 'missing-status', message: `line ${i + 1}: card ${id} needs a **Status:** line (${STATUSES.join('|')})` });
  });
  if (cards === 0) problems.push({ kind: 'no-cards', message: 'the page has no cards' });
  lines.forEach((line, i) => {
    if (!line.startsWith('**Source:**')) return;
    for (const m of line.matchAll(SOURCE_PATH)) {
      if (!existsSync(join(root, m[1]!))) problems.push({ kind: 'missing-source', message: `line ${i + 1}: cites ${m[1]}, which does not exist` });
    }
  });
  const documented = new Set(page.match(SETTING) ?? []);
  const reported = new Set<string>();
  for (const file of sourceFiles) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const name of text.match(SETTING) ?? []) {
      if (documented.has(name) || reported.has(name) || FILE_NAME.test(name)) continue;
      reported.add(name);
      problems.push({ kind: 'undocumented-setting', message: `${name} is used in ${file} but not documented in docs/reference.md` });
    }
  }
  return problems;
}

/** Source files whose `yukta.*` names must be documented: code, not tests. */
export function listSourceFiles(root: string, folders: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === 'node_modules' || name === 'dist') continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|tsx|mjs|cjs)$/.test(name) && !/\.(test|spec|contract)\.tsx?$/.test(name)) out.push(relative(root, path));
    }
  };
  for (const f of folders) walk(join(root, f));
  return out.sort();
}

/** The backticked key of each row of a settings table block (its first cell). */
function tableKeys(lines: readonly string[]): string[] {
  return lines.map((l) => /^\| `([^`]+)` \|/.exec(l)?.[1]).filter((k): k is string => k !== undefined);
}

/**
 * Checks the page's settings table (CFG-01) against the one generated from the settings table in code
 * (`generated`: its lines, markers included): a key in one but not the other fails, naming it, and any
 * other difference says the table is stale.
 */
export function checkSettingsTable(page: string, generated: readonly string[]): ReferenceProblem[] {
  const start = generated[0]!;
  const end = generated[generated.length - 1]!;
  const lines = page.split('\n');
  const from = lines.indexOf(start);
  const to = lines.indexOf(end);
  if (from < 0 || to < from)
    return [{ kind: 'settings-table', message: `the page has no settings table between "${start}" and "${end}" (npm run docs:settings writes it)` }];
  const onPage = lines.slice(from, to + 1);
  const documented = new Set(tableKeys(onPage));
  const inCode = new Set(tableKeys(generated));
  const problems: ReferenceProblem[] = [];
  for (const key of inCode)
    if (!documented.has(key))
      problems.push({ kind: 'settings-table', message: `${key} is in the settings table in code but not in the page's settings table` });
  for (const key of documented)
    if (!inCode.has(key)) problems.push({ kind: 'settings-table', message: `${key} is in the page's settings table but not in the settings table in code` });
  if (problems.length === 0 && onPage.join('\n') !== generated.join('\n'))
    problems.push({ kind: 'settings-table', message: 'the settings table is not current: run npm run docs:settings' });
  return problems;
}
