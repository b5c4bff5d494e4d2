/**
 * The kill -9 harness (DUR-01…03): starts the host as a real child process on one data folder, feeds it
 * starts with idempotency keys and control commands over HTTP, SIGKILLs it at a seeded random moment,
 * starts it again on the same folder and checks the durability promise:
 *   - no acknowledged start is lost: every start answered 2xx is found after the restart;
 *   - none is run twice for one key: re-sending an acknowledged key after the restart gives the same id;
 *   - no run is left RUNNING after recovery: every run of the killed process is ended or ABORTED;
 *   - no node with an end marker runs again on resume: a resumed run never calls a node whose end marker was
 *     stored for the run it continues (counted from the plugins' own call log);
 *   - a run resumes once: a second resume is 409;
 *   - the database is sound: `PRAGMA integrity_check` = ok after every kill (PostgreSQL: amcheck, `soak-inspect.ts`).
 * The store is SQLite by default, or PostgreSQL (DUR-04: a schema of its own in the database given, dropped
 * when every check passed). Used by `main/host/crash-recovery.test.ts` (≥ 50 kills each) and
 * `bench/soak-crash.ts` (200).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isTerminal, Status } from '../../shared/status/status';
import { api, bundleChild, startChild, type Child } from './crash-soak-child';
import { soakStore, type SoakStoreInspector } from './soak-store';
import { INVOCATIONS_FILE } from './soak-plugins';

const ended = (status: unknown): boolean => {
  const parsed = Status.safeParse(status);
  return parsed.success && isTerminal(parsed.data);
};

export interface SoakOptions {
  /** Kills (each followed by a restart and the checks). */
  iterations: number;
  seed: number;
  /** Starts fed to each process (3…6 by default, varied by the seed). */
  startsPerLife?: [number, number];
  /** The kill comes this many milliseconds after the load begins, at random in the range (0…250). */
  killWindowMs?: [number, number];
  /** Progress lines. */
  log?: (line: string) => void;
  /** The child's store (`sqlite`); `memory` is the harness's negative control: it must report lost starts. */
  store?: 'sqlite' | 'memory' | 'postgres';
  /** `postgres`: a database URL (an administrator's); the soak makes a schema of its own in it. */
  postgresUrl?: string;
}

export interface SoakTallies {
  iterations: number;
  seed: number;
  /** Starts answered 2xx. */
  acknowledged: number;
  /** Starts sent and not answered (killed mid-request, or refused). */
  unacknowledged: number;
  /** Acknowledged starts not found after a restart (must be 0). */
  lost: number;
  /** Acknowledged keys that gave another id after a restart (must be 0). */
  duplicated: number;
  keysResent: number;
  /** Runs of a killed process not ended nor ABORTED once the next one recovered (must be 0). */
  leftRunning: number;
  runsChecked: number;
  /** Runs of a killed process found ABORTED by recovery (the kill caught them mid-flight). */
  abortedByKill: number;
  resumed: number;
  /** Second resumes that were not 409 (must be 0). */
  resumedTwice: number;
  /** Calls of a node with an end marker in the run a resume continues (must be 0). */
  reexecuted: number;
  /** Nodes with an end marker skipped by resumes (the denominator of `reexecuted`). */
  markedNodesSkipped: number;
  commands: number;
  /** Integrity checks (`PRAGMA integrity_check`, PostgreSQL amcheck) that failed (must be 0). */
  integrityFailures: number;
  integrityChecks: number;
  /** Mean time from spawn to READY. */
  meanBootMs: number;
  durationMs: number;
}

interface Started {
  id: string;
  key: string;
  workflowId: string;
  payload: Record<string, unknown>;
}

interface Resume {
  from: string;
  to: string;
  /** Nodes of `from` with an end marker when the resume was asked. */
  marked: string[];
}

/** mulberry32: the harness's only source of chance, so a seed replays the same schedule of loads and kills. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORKFLOWS = [
  {
    workflowId: 'chain',
    nodes: [
      { nodeId: 't', type: 'API_TRIGGER' },
      { nodeId: 's1', type: 'SOAK_STEP' },
      { nodeId: 's2', type: 'SOAK_STEP' },
      { nodeId: 's3', type: 'SOAK_STEP' },
      { nodeId: 'sink', type: 'SOAK_SINK' },
    ],
    edges: [
      { source: 't', target: 's1' },
      { source: 's1', target: 's2' },
      { source: 's2', target: 's3' },
      { source: 's3', target: 'sink' },
    ],
  },
  {
    workflowId: 'approve',
    nodes: [
      { nodeId: 't', type: 'API_TRIGGER' },
      { nodeId: 's1', type: 'SOAK_STEP' },
      { nodeId: 'w', type: 'WAIT_FOR_SIGNAL', config: { signal: 'go' } },
      { nodeId: 's2', type: 'SOAK_STEP' },
      { nodeId: 'sink', type: 'SOAK_SINK' },
    ],
    edges: [
      { source: 't', target: 's1' },
      { source: 's1', target: 'w' },
      { source: 'w', target: 's2' },
      { source: 's2', target: 'sink' },
    ],
  },
];

/** Every node call per run, from the plugins' own log. */
function invocations(dataDir: string): Map<string, Set<string>> {
  const calls = new Map<string, Set<string>>();
  const file = join(dataDir, INVOCATIONS_FILE);
  if (!existsSync(file)) return calls;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [run, node] = line.split(' ');
    if (!run || !node) continue;
    if (!calls.has(run)) calls.set(run, new Set());
    calls.get(run)!.add(node);
  }
  return calls;
}

/** One of: the same key again (same id expected), an approval, pause + resume, a stop, or nothing. */
async function commandAfterStart(url: string, run: Started, roll: number, t: SoakTallies, problems: string[]): Promise<void> {
  const id = run.id;
  if (roll < 0.15) {
    const again = await api(url, 'POST', '/api/workflow/start', { workflowId: run.workflowId, payload: run.payload }, { 'idempotency-key': run.key });
    if (again.status === 200 && again.json.executionId !== id) {
      t.duplicated++;
      problems.push(`key ${run.key} repeated gave ${JSON.stringify(again.json)} instead of ${id}`);
    }
  } else if (roll < 0.45 && run.workflowId === 'approve') {
    t.commands++;
    await api(url, 'POST', `/api/executions/${id}/signal`, { nodeId: 'w', decision: 'APPROVE' });
  } else if (roll < 0.6) {
    t.commands += 2;
    await api(url, 'POST', `/api/executions/${id}/control`, { command: { type: 'PauseWorkflow' } });
    await api(url, 'POST', `/api/executions/${id}/control`, { command: { type: 'ResumeWorkflow' } });
  } else if (roll < 0.7) {
    t.commands++;
    await api(url, 'POST', `/api/executions/${id}/control`, { command: { type: 'StopWorkflow', mode: 'CANCEL' } });
  }
}

/**
 * Runs the soak; the data folder is deleted when every check passed (kept for a look otherwise, its path in
 * the log), the bundled child always, and a child still alive after an error is killed.
 */
export async function runCrashSoak(options: SoakOptions): Promise<SoakTallies> {
  const entry = await bundleChild();
  const dataDir = await mkdtemp(join(tmpdir(), 'yukta-crash-soak-'));
  const children = new Set<Child>();
  const store = await soakStore(options.store ?? 'sqlite', dataDir, options.postgresUrl);
  try {
    const t = await soak(options, dataDir, store.inspector, async () => {
      const child = await startChild(entry, dataDir, options.store ?? 'sqlite', store.env);
      children.add(child);
      void child.exited.then(() => children.delete(child));
      return child;
    });
    const clean = t.lost + t.duplicated + t.leftRunning + t.resumedTwice + t.reexecuted + t.integrityFailures === 0;
    if (clean) {
      rmSync(dataDir, { recursive: true, force: true });
      await store.drop();
    } else options.log?.(`data folder kept: ${dataDir}${store.where}`);
    return t;
  } finally {
    for (const child of children) child.proc.kill('SIGKILL');
    await store.inspector.close();
    rmSync(entry, { force: true });
  }
}

async function soak(options: SoakOptions, dataDir: string, inspector: SoakStoreInspector, spawnChild: () => Promise<Child>): Promise<SoakTallies> {
  const began = Date.now();
  const random = seeded(options.seed);
  const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const [minStarts, maxStarts] = options.startsPerLife ?? [3, 6];
  const [minKill, maxKill] = options.killWindowMs ?? [0, 250];
  const log = options.log ?? (() => undefined);
  const t: SoakTallies = {
    iterations: 0,
    seed: options.seed,
    acknowledged: 0,
    unacknowledged: 0,
    lost: 0,
    duplicated: 0,
    keysResent: 0,
    leftRunning: 0,
    runsChecked: 0,
    abortedByKill: 0,
    resumed: 0,
    resumedTwice: 0,
    reexecuted: 0,
    markedNodesSkipped: 0,
    commands: 0,
    integrityFailures: 0,
    integrityChecks: 0,
    meanBootMs: 0,
    durationMs: 0,
  };
  const acked: Started[] = [];
  const resumes: Resume[] = [];
  let previous: { starts: Started[]; runs: string[] } = { starts: [], runs: [] };
  let marked = new Map<string, string[]>();
  let bootMs = 0;
  const problems: string[] = [];

  for (let life = 0; life <= options.iterations; life++) {
    const bootStart = Date.now();
    const child = await spawnChild();
    bootMs += Date.now() - bootStart;
    const { url } = child;
    const runs: string[] = [];
    const starts: Started[] = [];
    if (life === 0) {
      for (const definition of WORKFLOWS) {
        const saved = await api(url, 'POST', '/api/workflows', { definition });
        if (saved.status !== 200) throw new Error(`saving ${definition.workflowId} failed: ${JSON.stringify(saved.json)}`);
      }
    }

    // Recovery: every acknowledged start of the killed process is there and ended or ABORTED; its keys give the same ids.
    for (const id of [...previous.starts.map((s) => s.id), ...previous.runs]) {
      const got = await api(url, 'GET', `/api/executions/${id}`);
      t.runsChecked++;
      if (got.status === 404) {
        t.lost++;
        problems.push(`life ${life}: run ${id} not found`);
      } else if (got.json.status === 'ABORTED') {
        t.abortedByKill++;
      } else if (!ended(got.json.status)) {
        t.leftRunning++;
        problems.push(`life ${life}: run ${id} is ${String(got.json.status)} after recovery`);
      }
    }
    const older = acked.length > previous.starts.length ? [acked[between(0, acked.length - previous.starts.length - 1)]!] : [];
    for (const s of [...previous.starts, ...older]) {
      const again = await api(url, 'POST', '/api/workflow/start', { workflowId: s.workflowId, payload: s.payload }, { 'idempotency-key': s.key });
      t.keysResent++;
      if (again.json.executionId !== s.id) {
        t.duplicated++;
        problems.push(`life ${life}: key ${s.key} gave ${JSON.stringify(again.json)} instead of ${s.id}`);
      }
    }

    // Resume up to two runs the kill interrupted; a second resume of the same run must be 409.
    const aborted: string[] = [];
    for (const id of [...previous.starts.map((s) => s.id), ...previous.runs]) {
      if (aborted.length >= 2) break;
      const got = await api(url, 'GET', `/api/executions/${id}`);
      if (got.json.status === 'ABORTED') aborted.push(id);
    }
    for (const id of aborted) {
      const r = await api(url, 'POST', `/api/executions/${id}/resume`, {});
      if (r.status !== 200) {
        problems.push(`life ${life}: resume of ${id} answered ${r.status} ${JSON.stringify(r.json)}`);
        continue;
      }
      t.resumed++;
      const to = String(r.json.executionId);
      runs.push(to);
      resumes.push({ from: id, to, marked: marked.get(id) ?? [] });
      const twice = await api(url, 'POST', `/api/executions/${id}/resume`, {});
      if (twice.status !== 409) {
        t.resumedTwice++;
        problems.push(`life ${life}: a second resume of ${id} answered ${twice.status}`);
      }
    }

    if (life === options.iterations) {
      // The last life is not killed: every start ever acknowledged is still there, then a clean stop.
      for (const s of acked) {
        if ((await api(url, 'GET', `/api/executions/${s.id}`)).status === 404) {
          t.lost++;
          problems.push(`final sweep: run ${s.id} not found`);
        }
      }
      child.proc.kill('SIGTERM');
      await child.exited;
      break;
    }

    // Load: starts with keys, a repeated key, control commands; then SIGKILL at a random moment.
    const inflight: Array<Promise<unknown>> = [];
    const count = between(minStarts, maxStarts);
    for (let j = 0; j < count; j++) {
      const workflowId = random() < 0.3 ? 'approve' : 'chain';
      const s = { key: `k${life}-${j}`, workflowId, payload: { life, j, delayMs: between(0, 40) } };
      const command = random();
      const started = api(url, 'POST', '/api/workflow/start', { workflowId, payload: s.payload }, { 'idempotency-key': s.key }).then(
        (r) => {
          if (r.status !== 200) {
            t.unacknowledged++;
            return;
          }
          const run = { ...s, id: String(r.json.executionId) };
          starts.push(run);
          acked.push(run);
          t.acknowledged++;
          // A command may meet the kill: its answer does not matter, only what recovery finds.
          return commandAfterStart(url, run, command, t, problems).catch(() => undefined);
        },
        () => void t.unacknowledged++,
      );
      inflight.push(started.catch((error: unknown) => problems.push(`life ${life}: ${String(error)}`)));
    }
    const killAfter = between(minKill, maxKill);
    await new Promise<void>((res) => setTimeout(res, killAfter));
    child.proc.kill('SIGKILL');
    await child.exited;
    await Promise.allSettled(inflight);
    previous = { starts, runs };

    const inspected = await inspector.inspect();
    t.integrityChecks += inspected.checks;
    if (!inspected.ok) {
      t.integrityFailures++;
      problems.push(`life ${life}: integrity_check failed`);
    }
    marked = inspected.marked;
    t.iterations++;
    log(
      `kill ${life + 1}/${options.iterations} after ${killAfter} ms: ${starts.length}/${count} starts acknowledged, ${runs.length} resumed; totals lost ${t.lost}, duplicated ${t.duplicated}, left running ${t.leftRunning}, re-executed ${t.reexecuted}`,
    );
  }

  const integrity = await inspector.inspect();
  t.integrityChecks += integrity.checks;
  if (!integrity.ok) t.integrityFailures++;
  const calls = invocations(dataDir);
  for (const r of resumes) {
    const called = calls.get(r.to) ?? new Set<string>();
    t.markedNodesSkipped += r.marked.length;
    for (const node of r.marked) {
      if (called.has(node)) {
        t.reexecuted++;
        problems.push(`resume ${r.from} → ${r.to} called ${node} again though it had an end marker`);
      }
    }
  }
  t.meanBootMs = Math.round(bootMs / (options.iterations + 1));
  t.durationMs = Date.now() - began;
  for (const p of problems.slice(0, 20)) log(`problem: ${p}`);
  return t;
}
