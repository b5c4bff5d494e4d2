import { spawn } from 'node:child_process';
import { BadInputError } from '../../../runtime/errors';

export interface ProcessSpec {
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd?: string | undefined;
  stdin?: string | undefined;
  /** Output (stdout and stderr each) beyond this fails the call. */
  maxOutputBytes: number;
  /** Called with each complete stdout line when set (live logs). */
  onLine?: ((line: string) => void) | undefined;
}

export interface ProcessResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** Output over the cap: the process group is killed. */
export class ProcessOutputTooLargeError extends BadInputError {
  constructor(max: number) {
    super(`the process wrote more than ${max} bytes (yukta.execution.max-message-bytes)`, 'OUTPUT_TOO_LARGE');
  }
}

/** Kills the whole process group (the command and anything it started); a group already gone is fine. */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing left to kill
  }
}

/**
 * Runs a command without a shell (SEC-03): the arguments are an array, never parsed; the environment is
 * only what the node sets plus PATH and LANG (the host's secrets and keys are not inherited); the command
 * leads its own process group (`detached`), so a stop or timeout kills it and everything it started with one
 * SIGKILL to the group. Resolves when the process and every holder of its output have exited.
 */
export function runProcess(spec: ProcessSpec, signal: AbortSignal): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...(process.env.LANG ? { LANG: process.env.LANG } : {}), ...spec.env };
    const child = spawn(spec.command, [...spec.args], { shell: false, detached: true, env, cwd: spec.cwd, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    let failure: unknown = null;
    const fail = (error: unknown): void => {
      failure ??= error;
      killGroup(child.pid);
    };
    const onAbort = (): void => fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const out = collect(spec.maxOutputBytes, fail, spec.onLine);
    const err = collect(spec.maxOutputBytes, fail);
    child.stdout.on('data', out.push);
    child.stderr.on('data', err.push);
    child.stdin.on('error', () => undefined); // a command that does not read its input
    child.stdin.end(spec.stdin ?? '');
    let settled = false;
    child.on('error', (error) => {
      fail(new BadInputError(`cannot start "${spec.command}": ${error.message}`, 'PROCESS_START_FAILED'));
      if (child.pid !== undefined || settled) return;
      settled = true; // it never started: there will be no exit to wait for
      signal.removeEventListener('abort', onAbort);
      reject(failure);
    });
    child.on('close', (exitCode, exitSignal) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      killGroup(child.pid); // leave nothing of the group behind
      out.flush();
      if (failure !== null) reject(failure);
      else resolve({ exitCode, signal: exitSignal, stdout: out.text(), stderr: err.text() });
    });
  });
}

function collect(max: number, fail: (error: unknown) => void, onLine?: (line: string) => void) {
  const chunks: Buffer[] = [];
  let size = 0;
  let partial = '';
  return {
    push: (chunk: Buffer): void => {
      size += chunk.length;
      if (size > max) return fail(new ProcessOutputTooLargeError(max));
      chunks.push(chunk);
      if (!onLine) return;
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    },
    flush: (): void => {
      if (onLine && partial) onLine(partial);
      partial = '';
    },
    text: (): string => Buffer.concat(chunks).toString('utf8'),
  };
}
