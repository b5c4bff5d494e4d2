import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, type EngineOptions } from '../engine';
import { builtinPlugins } from '../plugins/builtin';
import type { Plugin } from '../plugins/contract';
import { ManualClock } from '../runtime/clock';
import { openStores, type DurableStores } from '../store/durable-stores';

/** One process's life on a data folder: its stores and its engine. */
export interface Boot {
  engine: Engine;
  stores: DurableStores;
  clock: ManualClock;
}

/**
 * Engines booted one after another on one SQLite data folder, as an app restarted after a crash (DUR-01…03).
 * `crash()` stores what the current process has queued (what a real crash may or may not keep is the kill -9
 * harness's job), closes its database and abandons its engine without ending its runs, so the next `boot()`
 * finds them unfinished. Plugins are given per boot: a test can block a node in one life and not the next.
 */
export class DurableEngines {
  private current: Boot | null = null;
  private readonly abandoned: Boot[] = [];

  private constructor(readonly dataDir: string) {}

  static async create(): Promise<DurableEngines> {
    return new DurableEngines(await mkdtemp(join(tmpdir(), 'yukta-durable-')));
  }

  /** Opens the stores and starts an engine on them; resolves after boot recovery. */
  async boot(plugins: Array<Plugin<never>>, options: EngineOptions = {}): Promise<Boot> {
    if (this.current) throw new Error('crash() or close() the running engine before booting another');
    const stores = openStores({ kind: 'sqlite', dataDir: this.dataDir });
    const clock = new ManualClock(1_000_000 + this.abandoned.length * 1_000);
    const engine = new Engine({
      plugins: [...builtinPlugins(), ...plugins],
      clock,
      randomSeed: 42,
      ...options,
      scheduler: { ...options.scheduler, limits: { shutdownTimeoutMs: 0, ...options.scheduler?.limits } },
      definitions: stores.definitions,
      durability: { log: stores.log!, ...options.durability },
      control: { ...options.control, checkpoints: stores.checkpoints },
    });
    await engine.ready;
    this.current = { engine, stores, clock };
    return this.current;
  }

  /** The process dies: queued writes are stored, the database closed, the engine left as it is. */
  async crash(): Promise<void> {
    const boot = this.take();
    await boot.stores.log!.flush();
    await boot.stores.checkpoints.flush();
    await boot.stores.close();
    this.abandoned.push(boot);
  }

  /** A clean stop: runs ended (ADM-01 shutdown), stores closed. */
  async close(): Promise<void> {
    if (!this.current) return;
    const boot = this.take();
    await boot.engine.shutdown();
    await boot.stores.close();
  }

  private take(): Boot {
    const boot = this.current;
    if (!boot) throw new Error('no engine is running');
    this.current = null;
    return boot;
  }
}
