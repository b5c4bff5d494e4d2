/**
 * Runs one downloader (Electron's `install.js`, prebuild-install) as a child process for the start script:
 * its output is kept, not shown (both print stack traces or log noise on failure), progress is the growth
 * of the folder it downloads into (its TMPDIR), and a download that makes no progress for a while is
 * stopped. The outcome is one line: ok, or the error the child reported.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

export interface FetcherRun {
  /** What is fetched, for the progress line ("Electron 41.7.1 (linux-x64)"). */
  label: string;
  command: string;
  args: string[];
  cwd: string;
  env: Env;
  /**
   * A folder the child downloads into (given to it as TMPDIR/TEMP/TMP), emptied before and removed after:
   * its growth is the progress shown and the stall watchdog. Without one, the child's own timeouts apply.
   */
  downloadDir?: string;
  /** Stop a child whose download has not grown for this long (2 minutes). */
  stallMs?: number;
  /** Where progress goes (stderr by default). */
  write?: (text: string) => void;
  /** Whether progress may redraw one line (a terminal). */
  tty?: boolean;
}

export type FetchOutcome = { ok: true } | { ok: false; error: string };

function folderBytes(dir: string): number {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    try {
      total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
    } catch {
      // The downloader renamed or removed it meanwhile.
    }
  }
  return total;
}

const megabytes = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/**
 * The one line of a child's output worth showing: the first line of an error (not the stack frames below
 * it), or a prebuild-install warning without its prefix, else the last line.
 */
export function errorLine(output: string): string {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !/^at\s/.test(l) && !/^prebuild-install (info|http)\b/.test(l));
  const warned = lines.filter((l) => l.startsWith('prebuild-install warn')).map((l) => l.replace(/^prebuild-install warn( install)?\s*/, ''));
  if (warned.length) return warned[warned.length - 1]!;
  const error = lines.find((l) => /^(\w*Error|Error)\b|\bE[A-Z]{3,}\b/.test(l));
  return (error ?? lines[lines.length - 1] ?? 'it exited without saying why').replace(/^\w*Error:\s*/, '');
}

/** Runs the child to its end; resolves with its outcome (never rejects). */
export function runFetcher(run: FetcherRun): Promise<FetchOutcome> {
  const write = run.write ?? ((text: string) => void process.stderr.write(text));
  const tty = run.tty ?? Boolean(process.stderr.isTTY);
  const stallMs = run.stallMs ?? 120_000;
  const dir = run.downloadDir;
  if (dir) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }
  const env = dir ? { ...run.env, TMPDIR: dir, TEMP: dir, TMP: dir } : run.env;
  return new Promise((resolve) => {
    let output = '';
    let bytes = 0;
    let lastGrowth = Date.now();
    let lastShown = -1;
    let stalled = false;
    const child = spawn(run.command, run.args, { cwd: run.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const show = () => {
      if (!dir) return;
      const now = folderBytes(dir);
      if (now !== bytes) {
        bytes = now;
        lastGrowth = Date.now();
      }
      if (Date.now() - lastGrowth > stallMs) {
        stalled = true;
        child.kill();
      }
      if (bytes === lastShown) return;
      // Non-terminals get a line per 10 MB, not a line per second.
      if (!tty && lastShown >= 0 && bytes - lastShown < 10e6) return;
      lastShown = bytes;
      write(tty ? `\r  downloading ${run.label}: ${megabytes(bytes)}   ` : `  downloading ${run.label}: ${megabytes(bytes)}\n`);
    };
    const ticker = setInterval(show, 1000);
    const finish = (outcome: FetchOutcome) => {
      clearInterval(ticker);
      if (tty && lastShown >= 0) write('\n');
      if (dir) rmSync(dir, { recursive: true, force: true });
      resolve(outcome);
    };
    child.on('error', (error) => finish({ ok: false, error: `${run.command} could not start (${error.message})` }));
    child.on('close', (code, signal) => {
      if (stalled) return finish({ ok: false, error: `no data arrived for ${Math.round(stallMs / 1000)} s (is the network reachable?)` });
      if (code === 0) return finish({ ok: true });
      finish({ ok: false, error: code === null ? `it was stopped (${signal})` : errorLine(output) });
    });
  });
}
