/** Test helpers: the CLI from source as a real child process (`node --import tsx main/cli/index.ts …`). Not a test file. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Environment of a child: this process's without `YUKTA_*` variables (a developer's own must not leak in), plus `env`. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('YUKTA_')));
  return { ...base, NO_COLOR: '1', ...env };
}

function spawnCli(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'main/cli/index.ts', ...args], { cwd: ROOT, env: childEnv(env) });
}

/** Runs one CLI command to its end. */
export function cli(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A CLI command left running: its output line by line, signals, and its exit. */
export interface RunningCli {
  readonly child: ChildProcess;
  /** stdout lines so far. */
  readonly lines: string[];
  stderr(): string;
  /** Resolves with the first stdout line (so far or to come) matching the pattern. */
  line(pattern: RegExp): Promise<RegExpExecArray>;
  signal(name: NodeJS.Signals): void;
  readonly exited: Promise<number | null>;
}

export function startCli(args: string[], env: Record<string, string> = {}): RunningCli {
  const child = spawnCli(args, env);
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const waiting: Array<{ pattern: RegExp; resolve: (m: RegExpExecArray) => void }> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const w of [...waiting]) {
      const m = w.pattern.exec(line);
      if (m) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const line = (pattern: RegExp): Promise<RegExpExecArray> => {
    for (const l of lines) {
      const m = pattern.exec(l);
      if (m) return Promise.resolve(m);
    }
    const found = new Promise<RegExpExecArray>((resolve) => waiting.push({ pattern, resolve }));
    const ended = exited.then((code) =>
      Promise.reject(new Error(`exited ${code} before printing ${pattern}; stdout:\n${lines.join('\n')}\nstderr:\n${stderr}`)),
    );
    return Promise.race([found, ended]);
  };
  return { child, lines, stderr: () => stderr, line, signal: (name) => child.kill(name), exited };
}

/** `yukta serve --port 0 …`, resolved once it prints its address. */
export async function startServe(args: string[], env: Record<string, string> = {}): Promise<RunningCli & { url: string }> {
  const running = startCli(['serve', '--port', '0', ...args], env);
  const [, url] = await running.line(/^Yukta Studio serving at (http:\/\/127\.0\.0\.1:\d+)$/);
  return { ...running, url: url! };
}

/** Data folders made for a test file: `with(settings)` makes one holding that settings.json; `removeAll` cleans up. */
export function tempDataFolders(prefix: string): { with(settings: Record<string, unknown>): string; removeAll(): void } {
  const made: string[] = [];
  return {
    with(settings) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      made.push(dir);
      writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings));
      return dir;
    },
    removeAll: () => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })),
  };
}
