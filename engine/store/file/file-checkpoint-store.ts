import { closeSync, existsSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Status } from '../../../shared/status/status';
import { parseEndStatus, parseRecordedMessage, recordedLine } from '../checkpoint-codec';
import type { CheckpointStats, CheckpointStore, CheckpointWriter, NodeCheckpoint, RecordedMessage } from '../checkpoint-store';
import { isTransientWriteError, toStoreWriteError, type StoreWriteProblem } from '../store-errors';
import { UnwritableEntryError } from '../unwritable-entry-error';
import { decodeName, encodeName } from './file-names';
import { readJsonl } from './jsonl-lines';

/** A node with queued lines, an open file or a queued end marker. */
interface NodeFile {
  readonly executionId: string;
  readonly nodeId: string;
  lines: string[];
  fd: number | null;
  /** Bytes of complete lines in the file (a failed write is cut back to this). */
  size: number;
  end: Status | null;
}

export interface FileCheckpointOptions {
  /** `yukta.restart.dir`. */
  dir: string;
  /** A background write failed (its lines stay queued and are retried), or a node's lines were dropped (not I/O). */
  onWriteError?: (error: StoreWriteProblem) => void;
}

/**
 * Checkpoints as files (DUR-02; `yukta.restart.dir`): `<run>/<node>.jsonl`, one line per recorded message,
 * through one open file per node until its end; the end writes the rest, forces the file, writes and forces
 * `<node>.done` (the end marker) and forces the folder. Writes are queued and done once per turn of the
 * event loop, in order, so a `.done` file means the whole output is on disk. No caps.
 */
export class FileCheckpointStore implements CheckpointStore {
  private readonly open = new Map<string, NodeFile>();
  private readonly dirty = new Set<NodeFile>();
  private readonly knownRuns = new Set<string>();
  private scheduled = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Bytes of the `.jsonl` files per run; their sum is `yukta.checkpoint.bytes` (a gauge, read from disk at open). */
  private readonly runBytes = new Map<string, number>();
  private bytes = 0;
  private errors = 0;
  private lastError: StoreWriteProblem | null = null;
  /** Nodes whose lines were dropped (not I/O): incomplete, so they never get a `.done` marker. */
  private readonly incomplete = new Set<string>();

  constructor(private readonly options: FileCheckpointOptions) {
    mkdirSync(options.dir, { recursive: true });
    for (const name of readdirSync(options.dir)) {
      const id = decodeName(name);
      if (id !== null) this.addBytes(id, sizeOfRun(join(options.dir, name)));
    }
  }

  append(executionId: string, nodeId: string, message: RecordedMessage): void {
    this.queue(this.node(executionId, nodeId), recordedLine(message));
  }

  writer(executionId: string, nodeId: string): CheckpointWriter {
    const node = this.node(executionId, nodeId);
    return { full: false, append: (message) => this.queue(node, recordedLine(message)), markDone: (status) => this.end(node, status) };
  }

  markDone(executionId: string, nodeId: string, status: Status): void {
    this.end(this.node(executionId, nodeId), status);
  }

  async read(executionId: string, nodeId: string): Promise<NodeCheckpoint | null> {
    const node = this.open.get(keyOf(executionId, nodeId));
    if (node) this.tryWrite(node);
    const base = join(this.runDir(executionId), encodeName(nodeId));
    const content = existsSync(`${base}.jsonl`) ? readFileSync(`${base}.jsonl`) : null;
    const done = existsSync(`${base}.done`) ? parseEndStatus(readFileSync(`${base}.done`, 'utf8')) : null;
    const messages = content ? readJsonl(`${base}.jsonl`, content, parseRecordedMessage).records : [];
    const queued = node ? node.lines.map((l) => parseRecordedMessage(JSON.parse(l))) : [];
    if (!content && done === null && !node) return null;
    return { messages: [...messages, ...queued], end: node?.end ?? done, overCap: null };
  }

  drop(executionId: string): void {
    for (const node of [...this.open.values()]) {
      if (node.executionId !== executionId) continue;
      if (node.fd !== null) closeSync(node.fd);
      this.open.delete(keyOf(node.executionId, node.nodeId));
      this.dirty.delete(node);
    }
    this.knownRuns.delete(executionId);
    for (const key of this.incomplete) if (key.startsWith(`${executionId}\u0000`)) this.incomplete.delete(key);
    rmSync(this.runDir(executionId), { recursive: true, force: true });
    this.bytes -= this.runBytes.get(executionId) ?? 0;
    this.runBytes.delete(executionId);
  }

  async executions(): Promise<string[]> {
    const ids = new Set<string>();
    for (const name of readdirSync(this.options.dir)) {
      const id = decodeName(name);
      if (id !== null) ids.add(id);
    }
    for (const node of this.open.values()) ids.add(node.executionId);
    return [...ids];
  }

  async flush(): Promise<void> {
    this.drain();
    if (this.dirty.size > 0 && this.lastError) throw this.lastError;
  }

  stats(): CheckpointStats {
    return { bytes: this.bytes, errors: this.errors };
  }

  async close(): Promise<void> {
    this.drain();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    for (const node of this.open.values()) if (node.fd !== null) closeSync(node.fd);
    this.open.clear();
  }

  private node(executionId: string, nodeId: string): NodeFile {
    const key = keyOf(executionId, nodeId);
    let node = this.open.get(key);
    if (!node) this.open.set(key, (node = { executionId, nodeId, lines: [], fd: null, size: 0, end: null }));
    return node;
  }

  private queue(node: NodeFile, line: string): void {
    node.lines.push(line);
    this.dirty.add(node);
    this.schedule();
  }

  private end(node: NodeFile, status: Status): void {
    if (this.incomplete.has(keyOf(node.executionId, node.nodeId))) return void this.errors++;
    node.end = status;
    this.dirty.add(node);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    for (const node of [...this.dirty]) this.tryWrite(node);
  }

  private tryWrite(node: NodeFile): void {
    try {
      this.write(node);
      this.dirty.delete(node);
    } catch (error) {
      if (node.end !== null) this.errors++;
      if (!isTransientWriteError(error)) return this.dropLines(node, error);
      this.lastError = toStoreWriteError(error, `writing checkpoints of ${node.nodeId}`);
      this.options.onWriteError?.(this.lastError);
      this.retryLater();
    }
  }

  /**
   * A failure that is not I/O fails the same way every time: the node's queued lines are dropped (its end
   * marker is not written, so the node runs again on resume) instead of being retried ahead of the others.
   */
  private dropLines(node: NodeFile, cause: unknown): void {
    this.incomplete.add(keyOf(node.executionId, node.nodeId));
    node.lines = [];
    if (node.fd !== null) closeQuietly(node.fd);
    node.fd = null;
    this.dirty.delete(node);
    this.open.delete(keyOf(node.executionId, node.nodeId));
    this.options.onWriteError?.(new UnwritableEntryError(`the checkpoints of node "${node.nodeId}"`, cause));
  }

  /** Writes a node's queued lines; at its end forces the file, writes and forces `<node>.done` and the folder. */
  private write(node: NodeFile): void {
    const dir = this.runDir(node.executionId);
    if (!this.knownRuns.has(node.executionId)) {
      mkdirSync(dir, { recursive: true });
      fsyncFolder(this.options.dir);
      this.knownRuns.add(node.executionId);
    }
    const base = join(dir, encodeName(node.nodeId));
    if (node.lines.length > 0) {
      const data = Buffer.from(node.lines.join(''), 'utf8');
      node.fd ??= openSync(`${base}.jsonl`, 'a');
      try {
        writeAll(node.fd, data);
      } catch (error) {
        ftruncateSync(node.fd, node.size); // no torn line stays behind a later one
        throw error;
      }
      node.size += data.length;
      this.addBytes(node.executionId, data.length);
      node.lines = [];
    }
    if (node.end === null) return;
    if (node.fd !== null) {
      fsyncSync(node.fd);
      closeSync(node.fd);
      node.fd = null;
    }
    writeSynced(`${base}.done`, node.end);
    fsyncFolder(dir);
    this.open.delete(keyOf(node.executionId, node.nodeId));
  }

  private retryLater(): void {
    if (this.retryTimer !== null) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.drain();
    }, 1000);
    this.retryTimer.unref?.();
  }

  private runDir(executionId: string): string {
    return join(this.options.dir, encodeName(executionId));
  }

  private addBytes(executionId: string, bytes: number): void {
    this.runBytes.set(executionId, (this.runBytes.get(executionId) ?? 0) + bytes);
    this.bytes += bytes;
  }
}

/** Bytes of a run folder's `.jsonl` files (0 for anything that is not a readable folder). */
function sizeOfRun(dir: string): number {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
  } catch {
    return 0;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed or gone: nothing of it is used again.
  }
}

function keyOf(executionId: string, nodeId: string): string {
  return `${executionId}\u0000${nodeId}`;
}

function writeAll(fd: number, data: Buffer): void {
  let written = 0;
  while (written < data.length) written += writeSync(fd, data, written, data.length - written);
}

function writeSynced(path: string, text: string): void {
  const fd = openSync(path, 'w');
  try {
    writeAll(fd, Buffer.from(text, 'utf8'));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function fsyncFolder(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a folder.
  } finally {
    closeSync(fd);
  }
}
