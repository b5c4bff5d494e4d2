import { mkdtemp, readFile, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExecutionLogEntry } from '../execution-log';
import { logLine } from '../log-entry-codec';
import { LogCorruptionError, StoreWriteError, type StoreWriteProblem } from '../store-errors';
import { EXECUTION_LOG_FILE, JsonlExecutionLog } from './jsonl-execution-log';
import { NODE_LOG_FILE_SYSTEM, type AppendFile, type LogFileSystem } from './log-file-system';

const tempDir = () => mkdtemp(join(tmpdir(), 'yukta-jsonl-'));
const entry = (runId: string, at: number): ExecutionLogEntry => ({
  runId,
  type: 'RUN_STARTED',
  status: 'PENDING',
  actor: 'engine',
  at,
  data: { payload: { text: 'é'.repeat(at % 5), n: at } },
});

async function writeLog(dir: string, entries: ExecutionLogEntry[]): Promise<void> {
  await writeFile(join(dir, EXECUTION_LOG_FILE), entries.map(logLine).join(''));
}

/** The real file system, with a disk that can fill up: a write then stores half its bytes and fails ENOSPC. */
function fillableDisk(): { fs: LogFileSystem; full: boolean } {
  const disk = { full: false, fs: NODE_LOG_FILE_SYSTEM };
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  disk.fs = {
    ...NODE_LOG_FILE_SYSTEM,
    async openAppend(path) {
      const file = await NODE_LOG_FILE_SYSTEM.openAppend(path);
      const wrapped: AppendFile = {
        append: async (data) => {
          if (!disk.full) return file.append(data);
          await file.append(data.subarray(0, Math.floor(data.length / 2)));
          throw enospc();
        },
        sync: () => file.sync(),
        truncate: (length) => file.truncate(length),
        close: () => file.close(),
      };
      return wrapped;
    },
  };
  return disk;
}

describe('DUR-01 JSONL execution log: torn lines, corruption, a full disk', () => {
  it('recovers exactly the complete records when the last one is cut at any byte, with a warning and no exception', async () => {
    const dir = await tempDir();
    const records = [entry('a', 1), entry('b', 2), entry('c', 13)];
    await writeLog(dir, records);
    const path = join(dir, EXECUTION_LOG_FILE);
    const whole = await readFile(path);
    const lastStart = whole.length - Buffer.byteLength(logLine(records[2]!));
    for (let cut = lastStart; cut < whole.length; cut++) {
      await writeFile(path, whole.subarray(0, cut));
      const warnings: string[] = [];
      const log = await JsonlExecutionLog.open({ dir, warn: (w) => warnings.push(w) });
      expect(await log.entries()).toEqual(records.slice(0, 2));
      expect(warnings).toHaveLength(cut > lastStart ? 1 : 0);
      // The torn tail is cut off, so the next append starts a clean line.
      log.append(entry('d', 4));
      await log.close();
      const again = await JsonlExecutionLog.open({ dir });
      expect((await again.entries()).map((e) => e.runId)).toEqual(['a', 'b', 'd']);
      await again.close();
    }
  });

  it('reports a damaged line in the middle with its line number instead of skipping it', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, EXECUTION_LOG_FILE), `${logLine(entry('a', 1))}{"runId":"b",\n${logLine(entry('c', 3))}`);
    await expect(JsonlExecutionLog.open({ dir })).rejects.toThrow(LogCorruptionError);
    await expect(JsonlExecutionLog.open({ dir })).rejects.toThrow(/line 2 is damaged/);
    await writeFile(join(dir, EXECUTION_LOG_FILE), `${logLine(entry('a', 1))}{"runId":"b","type":"NOPE","status":"","actor":"","at":1}\n`);
    await expect(JsonlExecutionLog.open({ dir })).rejects.toThrow(/line 2 is damaged \(type "NOPE"/);
  });

  it('a full disk (ENOSPC) fails the flush with a typed error, keeps the file a valid prefix, and writes everything once space returns', async () => {
    const dir = await tempDir();
    const disk = fillableDisk();
    const errors: StoreWriteProblem[] = [];
    const log = await JsonlExecutionLog.open({ dir, fs: disk.fs, onWriteError: (e) => errors.push(e) });
    log.append(entry('a', 1));
    await log.flush();
    disk.full = true;
    log.append(entry('b', 2));
    const failure = await log.flush().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(StoreWriteError);
    expect((failure as StoreWriteError).code).toBe('STORE_FULL');
    expect((failure as StoreWriteError).message).toMatch(/disk is full/);
    expect(errors).toHaveLength(1);
    // The half-written line was cut off: the file holds exactly the acknowledged entry.
    expect(await readFile(join(dir, EXECUTION_LOG_FILE), 'utf8')).toBe(logLine(entry('a', 1)));
    disk.full = false;
    log.append(entry('c', 3));
    await log.flush();
    await log.close();
    const again = await JsonlExecutionLog.open({ dir });
    expect((await again.entries()).map((e) => e.runId)).toEqual(['a', 'b', 'c']);
    await again.close();
  });

  it('compaction rewrites the file with the retained runs (temp file, rename) and fsync mode still reads back', async () => {
    const dir = await tempDir();
    const log = await JsonlExecutionLog.open({ dir, fsync: true, retainedRuns: 1, compactAfter: 4 });
    for (const id of ['a', 'b', 'c']) {
      log.append(entry(id, 1));
      log.append({ runId: id, type: 'RUN_FINISHED', status: 'SUCCESS', actor: 'engine', at: 2 });
    }
    await log.flush();
    await log.close();
    const lines = (await readFile(join(dir, EXECUTION_LOG_FILE), 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as ExecutionLogEntry).runId)).toEqual(['c', 'c']);
  });

  it('an existing file whose size shrank is cut back on the next write (no line glued to a torn one)', async () => {
    const dir = await tempDir();
    const log = await JsonlExecutionLog.open({ dir });
    log.append(entry('a', 1));
    await log.flush();
    await log.close();
    const path = join(dir, EXECUTION_LOG_FILE);
    await truncate(path, 5);
    const again = await JsonlExecutionLog.open({ dir, warn: () => undefined });
    expect(await again.entries()).toEqual([]);
    again.append(entry('b', 2));
    await again.close();
    expect(await readFile(path, 'utf8')).toBe(logLine(entry('b', 2)));
  });
});
