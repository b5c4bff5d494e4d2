// bench/recursion-limits: the nesting depth at which each recursive routine our data passes through
// overflows the stack (SEC-03, why yukta.execution.max-depth is 128). Each is measured at the top of a
// fresh stack and under 2,000 frames of callers (fastify, the host, the engine and its listeners sit
// above it in real calls); the baseline is JSON.parse, which V8 runs without recursion. Prints a table
// with each limit as a multiple of the 128 levels allowed, and the smallest of all.
// Run: npx tsx bench/recursion-limits.ts
import { z } from 'zod';
import { Engine, builtinPlugins } from '../engine/index';
import { MemoryExecutionLog } from '../engine/store/memory/memory-execution-log';
import { canonicalJson } from '../engine/definitions/content-hash';
import { renderDeep } from '../engine/plugins/expressions/template';
import { SecretRedactor } from '../engine/security/secrets';
import { copyLogEntry } from '../engine/store/log-entry-codec';
import { DEFAULT_MAX_DEPTH } from '../shared/json/json-limits';

type Shape = 'arrays' | 'objects';

/** `levels` nested arrays or objects, built without recursion, with a string at the bottom. */
function nested(levels: number, shape: Shape): unknown {
  let value: unknown = 'leaf decrypted-secret-value';
  for (let i = 0; i < levels; i++) value = shape === 'arrays' ? [value] : { a: value };
  return value;
}

/** Runs `body` under `frames` extra stack frames. */
function underFrames(frames: number, body: () => void): void {
  if (frames === 0) return body();
  underFrames(frames - 1, body);
}

/** True when `work` handles a value nested `levels` deep without a stack overflow. */
function survives(work: (value: unknown) => void, levels: number, shape: Shape, frames: number): boolean {
  const value = nested(levels, shape);
  try {
    underFrames(frames, () => work(value));
    return true;
  } catch (error) {
    // A store's UnwritableEntryError carries the overflow as its cause.
    if (error instanceof RangeError || (error instanceof Error && error.cause instanceof RangeError)) return false;
    throw error;
  }
}

/** The deepest nesting `work` survives, by doubling then bisecting (capped at `cap`). */
function limitOf(work: (value: unknown) => void, shape: Shape, frames: number, cap = 1 << 20): number {
  let ok = 1;
  let bad = 2;
  while (bad <= cap && survives(work, bad, shape, frames)) {
    ok = bad;
    bad *= 2;
  }
  if (bad > cap) return cap;
  while (bad - ok > 1) {
    const mid = Math.floor((ok + bad) / 2);
    if (survives(work, mid, shape, frames)) ok = mid;
    else bad = mid;
  }
  return ok;
}

const redactor = new SecretRedactor();
redactor.add('decrypted-secret-value');
const zodJson = z.json();

const ROUTINES: Array<[string, (value: unknown) => void]> = [
  ['JSON.parse (baseline: iterative in V8)', (v) => JSON.parse(JSON.stringify(v))],
  ['JSON.stringify (stores, SSE, IPC, templates)', (v) => JSON.stringify(v)],
  ['canonical hashing (canonicalJson: versions, idempotency)', (v) => canonicalJson(v)],
  ['structuredClone (log copies past 32 levels, IPC)', (v) => structuredClone(v)],
  ['zod z.json() (a recursive schema; ours keep user JSON as z.unknown)', (v) => zodJson.parse(v)],
  ['templates renderDeep (plugin config)', (v) => renderDeep(v, { payload: {}, metadata: {}, context: {} })],
  [
    'log entry copy (copyLogEntry: hand copy, then structuredClone)',
    (v) => copyLogEntry({ runId: 'r', type: 'RUN_STARTED', status: '', actor: '', at: 0, data: v }),
  ],
  ['secret masking of events (SecretRedactor: stops at 256 levels)', (v) => redactor.redact(v)],
];

// JSON.parse must be measured on text, or JSON.stringify's own limit would be measured instead.
const parseLimit = (frames: number): number => {
  let ok = 1;
  for (let levels = 2; levels <= 1 << 20; levels *= 2) {
    try {
      underFrames(frames, () => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`));
      ok = levels;
    } catch {
      return ok;
    }
  }
  return ok;
};

/**
 * The whole path of a run on the engine — the tracker, the event bus and its masking, the execution log
 * (memory), checkpoints, a TRANSFORM and a CONSOLE_TERMINAL echoing the message — with the depth limit
 * lifted, so what overflows first is whatever recursion the run meets.
 */
async function runLimit(): Promise<number> {
  const engine = new Engine({ plugins: builtinPlugins(), security: { settings: { maxDepth: 1 << 30 } }, durability: { log: new MemoryExecutionLog() } });
  await engine.saveWorkflow('bench', {
    workflowId: 'deep',
    nodes: [
      { nodeId: 't', type: 'API_TRIGGER' },
      { nodeId: 'x', type: 'TRANSFORM', config: { set: { stamp: 1 }, mode: 'merge' } },
      { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
    ],
    edges: [
      { source: 't', target: 'x' },
      { source: 'x', target: 'out' },
    ],
  });
  const succeeds = async (levels: number): Promise<boolean> => {
    try {
      const { executionId } = await engine.startRun({ session: 'bench', workflowId: 'deep', payload: { deep: nested(levels, 'objects') } });
      return (await engine.waitForRun(executionId)) === 'SUCCESS';
    } catch {
      return false;
    }
  };
  let ok = 1;
  let bad = 2;
  while (bad <= 1 << 20 && (await succeeds(bad))) [ok, bad] = [bad, bad * 2];
  while (bad - ok > 1) {
    const mid = Math.floor((ok + bad) / 2);
    if (await succeeds(mid)) ok = mid;
    else bad = mid;
  }
  await engine.shutdown();
  return ok;
}

const FRAMES = 2000;
console.log(`\n### SEC-03 recursion limits: deepest nesting each routine survives (max-depth allows ${DEFAULT_MAX_DEPTH})\n`);
console.log(
  `| routine | arrays, fresh stack | objects, fresh stack | arrays, under ${FRAMES} frames | objects, under ${FRAMES} frames | smallest ÷ ${DEFAULT_MAX_DEPTH} |`,
);
console.log('| - | - | - | - | - | - |');
let smallest = { name: '', levels: Number.POSITIVE_INFINITY };
for (const [name, work] of ROUTINES) {
  const cells = name.startsWith('JSON.parse')
    ? [parseLimit(0), parseLimit(0), parseLimit(FRAMES), parseLimit(FRAMES)]
    : [limitOf(work, 'arrays', 0), limitOf(work, 'objects', 0), limitOf(work, 'arrays', FRAMES), limitOf(work, 'objects', FRAMES)];
  const least = Math.min(...cells);
  if (!name.startsWith('JSON.parse') && least < smallest.levels) smallest = { name, levels: least };
  const shown = cells.map((c) => (c >= 1 << 20 ? '≥ 1,048,576' : c.toLocaleString('en-US')));
  console.log(`| ${name} | ${shown.join(' | ')} | ${(least / DEFAULT_MAX_DEPTH).toFixed(1)}× |`);
}
const run = await runLimit();
console.log(
  `| a run end to end (tracker, events, masking, log, checkpoints, TRANSFORM, CONSOLE_TERMINAL) | – | ${run.toLocaleString('en-US')} | – | – | ${(run / DEFAULT_MAX_DEPTH).toFixed(1)}× |`,
);
if (run < smallest.levels) smallest = { name: 'a run end to end', levels: run };
console.log(
  `\nsmallest: ${smallest.name} at ${smallest.levels.toLocaleString('en-US')} levels = ${(smallest.levels / DEFAULT_MAX_DEPTH).toFixed(1)}× the ${DEFAULT_MAX_DEPTH} allowed`,
);
