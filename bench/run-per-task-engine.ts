/**
 * The engine side of bench/run-per-task: the chain workflow, and runs of it one after another on an Engine
 * with the stores given (durable: SQLite or PostgreSQL; none: memory).
 */
import { Engine, builtinPlugins, type DurableStores } from '../engine/index';

export const CHAINS = [40, 400];
/** `yukta.restart.retained-executions` and `yukta.execution-log.retained-runs`: what the loops delete as the engine does. */
export const ARCHIVED_RUNS = 100;
export const RETAINED_RUNS = 1000;
/** The start record's scope per chain (every node). */
export const SCOPES = new Map(CHAINS.map((n) => [n, ['trigger', ...Array.from({ length: n }, (_, k) => `t${k + 1}`)]]));
export const BENCH_VERSION = 'a3f9c2d17b5e4c08a3f9c2d17b5e4c08a3f9c2d17b5e4c08a3f9c2d17b5e4c08';

export function chain(n: number): { workflowId: string; nodes: unknown[]; edges: unknown[] } {
  const nodes: Array<{ nodeId: string; type: string; config?: unknown }> = [{ nodeId: 'trigger', type: 'MANUAL_TRIGGER' }];
  for (let k = 1; k <= n; k++) nodes.push({ nodeId: `t${k}`, type: 'TRANSFORM', config: { set: { step: k }, mode: 'merge' } });
  const edges = nodes.slice(1).map((node, i) => ({ source: nodes[i]!.nodeId, target: node.nodeId }));
  return { workflowId: `chain-${n}`, nodes, edges };
}

export interface Side {
  name: string;
  /** Runs `runs` runs of the chain of n tasks; resolves once everything they wrote is stored. */
  run(n: number, runs: number): Promise<void>;
  close(): Promise<void>;
}

export async function engineSide(name: string, stores: DurableStores | null): Promise<Side> {
  const engine = new Engine({
    plugins: builtinPlugins(),
    freezeMessages: false,
    ...(stores ? { definitions: stores.definitions, durability: { log: stores.log! }, control: { checkpoints: stores.checkpoints } } : {}),
  });
  await engine.ready;
  for (const n of CHAINS) await engine.saveWorkflow('bench', chain(n));
  let i = 0;
  return {
    name,
    async run(n, runs) {
      for (let r = 0; r < runs; r++) {
        const { executionId } = await engine.startRun({ session: 'bench', workflowId: `chain-${n}`, payload: { i: i++ } });
        const status = await engine.waitForRun(executionId);
        if (status !== 'SUCCESS') throw new Error(`run ended ${status}`);
      }
      await stores?.log?.flush();
      await stores?.checkpoints.flush();
    },
    async close() {
      await engine.shutdown();
      await stores?.close();
    },
  };
}

/** One store of bench/run-per-task: ours on it, durable, and a loop doing the same writes straight to it. */
export interface Backend {
  durable: Side;
  loop: Side & { rowsPerRun(n: number): Promise<number> };
  loopLabel: string;
  /** Rows the durable engine changes for one run of the chain (a check that the loop writes the same). */
  engineRowsPerRun(n: number): Promise<number>;
  /** µs per task ours must stay under. */
  targetUs: number;
  /** The chain the per-task target applies to (none: every chain). */
  targetAt?: number;
  /** Most ours / loop may be (none: not a target). */
  maxRatio?: number;
  close(): Promise<void>;
}
