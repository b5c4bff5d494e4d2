import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BadInputError } from '../runtime/errors';
import { SCRIPT_WORKER_SOURCE } from './script-worker-source';

export interface ScriptJob {
  code: string;
  payload: unknown;
  metadata: Readonly<Record<string, string>>;
  timeoutMs: number;
  memoryBytes: number;
  maxOutputBytes: number;
}

export interface ScriptOutcome {
  /** True when the script returned nothing (the message is dropped). */
  undefined: boolean;
  result: unknown;
  logs: string[];
}

/** Why a script stopped: its own error, its time limit, its memory limit, or output over the cap. */
export class ScriptError extends BadInputError {}

const STACK_BYTES = 256 * 1024;
/** Past its time limit plus this, a worker that has not answered is terminated (the interrupt should have fired). */
const WATCHDOG_GRACE_MS = 1_000;

interface Pending {
  job: ScriptJob & { id: number; stackBytes: number };
  resolve(outcome: ScriptOutcome): void;
  reject(error: unknown): void;
  signal: AbortSignal;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  busy: Pending | null;
}

function quickjsPath(): string {
  const path = createRequire(fileURLToPath(import.meta.url)).resolve('quickjs-emscripten');
  // Packaged app: the WASM module is unpacked next to the asar archive (electron-builder asarUnpack).
  const unpacked = path.replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');
  return unpacked !== path && existsSync(unpacked) ? unpacked : path;
}

/**
 * Runs SCRIPT code in QuickJS compiled to WASM, on worker threads (SEC-03): a script is CPU work, so it must
 * not block the event loop the studio and the other runs share (ENG-01). Each call gets a fresh QuickJS
 * runtime with memory and stack limits and an interrupt deadline; a worker that does not answer by its
 * deadline (plus a grace) is terminated, and one whose run is stopped (KILL, CANCEL) too, then replaced.
 */
export class ScriptSandbox {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private path: string | null = null;

  constructor(private readonly size = 2) {}

  run(job: ScriptJob, signal: AbortSignal): Promise<ScriptOutcome> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const pending: Pending = { job: { ...job, id: this.nextId++, stackBytes: STACK_BYTES }, resolve, reject, signal };
      const onAbort = (): void => this.abort(pending);
      signal.addEventListener('abort', onAbort, { once: true });
      const settle =
        <T>(fn: (v: T) => void) =>
        (v: T) => {
          signal.removeEventListener('abort', onAbort);
          fn(v);
        };
      pending.resolve = settle(resolve);
      pending.reject = settle(reject);
      this.queue.push(pending);
      this.pump();
    });
  }

  /** Stops every worker (engine shutdown). */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length) {
      let slot = this.slots.find((s) => s.busy === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const pending = this.queue.shift()!;
      slot.busy = pending;
      const target = slot;
      void target.ready.then(() => {
        if (target.busy !== pending) return;
        target.worker.postMessage(pending.job);
        this.watch(target, pending);
      });
    }
  }

  private spawn(): Slot {
    this.path ??= quickjsPath();
    const worker = new Worker(SCRIPT_WORKER_SOURCE, { eval: true, workerData: { quickjsPath: this.path }, resourceLimits: { stackSizeMb: 8 } });
    worker.unref();
    let ready!: () => void;
    const slot: Slot = { worker, ready: new Promise((r) => (ready = r)), busy: null };
    worker.on(
      'message',
      (message: { ready?: boolean; id?: number; text?: string; error?: { kind: string; name: string; message: string }; recycle?: boolean }) => {
        if (message.ready) return ready();
        const pending = slot.busy;
        if (!pending || pending.job.id !== message.id) return;
        slot.busy = null;
        if (message.recycle) this.replace(slot);
        if (message.error) pending.reject(scriptError(message.error, pending.job));
        else settleOutcome(pending, message.text);
        this.pump();
      },
    );
    worker.on('error', (error) => this.fail(slot, new ScriptError(`the script sandbox failed: ${error.message}`, 'SCRIPT_ERROR')));
    worker.on('exit', () => this.fail(slot, new ScriptError('the script sandbox stopped', 'SCRIPT_ERROR')));
    this.slots.push(slot);
    return slot;
  }

  /** Last line of defence behind the interrupt handler: terminate a worker past its deadline. */
  private watch(slot: Slot, pending: Pending): void {
    const timer = setTimeout(() => {
      if (slot.busy !== pending) return;
      this.fail(slot, new ScriptError(`the script ran longer than ${pending.job.timeoutMs} ms`, 'SCRIPT_TIMEOUT'));
    }, pending.job.timeoutMs + WATCHDOG_GRACE_MS);
    timer.unref();
  }

  private abort(pending: Pending): void {
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      return pending.reject(pending.signal.reason);
    }
    const slot = this.slots.find((s) => s.busy === pending);
    if (slot) this.fail(slot, pending.signal.reason);
  }

  /** Ends a slot's job with `error` and replaces its worker. */
  private fail(slot: Slot, error: unknown): void {
    const pending = slot.busy;
    slot.busy = null;
    this.replace(slot);
    pending?.reject(error);
    this.pump();
  }

  private replace(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    slot.worker.removeAllListeners('exit');
    void slot.worker.terminate();
  }
}

/**
 * Resolves a job with the worker's reply; a reply that is not the expected JSON (a script tampered with
 * what builds it, e.g. a `toJSON` on Object.prototype) fails the script instead of throwing in the host.
 */
function settleOutcome(pending: Pending, text: string | undefined): void {
  try {
    const parsed = JSON.parse(text ?? 'null') as { u?: unknown; r?: unknown; l?: unknown } | null;
    if (!parsed || typeof parsed !== 'object' || typeof parsed.u !== 'boolean' || !Array.isArray(parsed.l)) throw new Error('malformed');
    pending.resolve({ undefined: parsed.u, result: parsed.r, logs: parsed.l.map(String) });
  } catch {
    pending.reject(new ScriptError('the script result could not be read (the script changed how results are serialised)', 'SCRIPT_ERROR'));
  }
}

function scriptError(error: { kind: string; name: string; message: string }, job: ScriptJob): ScriptError {
  switch (error.kind) {
    case 'timeout':
      return new ScriptError(`the script ran longer than ${job.timeoutMs} ms`, 'SCRIPT_TIMEOUT');
    case 'memory':
      return new ScriptError(`the script used more than ${Math.round(job.memoryBytes / 1024 / 1024)} MiB`, 'SCRIPT_MEMORY');
    case 'size':
      return new ScriptError(`the script's result is larger than ${job.maxOutputBytes} bytes (yukta.execution.max-message-bytes)`, 'MESSAGE_TOO_LARGE');
    default:
      return new ScriptError(`script failed: ${error.name}: ${error.message}`, 'SCRIPT_ERROR');
  }
}
