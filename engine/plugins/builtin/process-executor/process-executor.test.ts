import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../../../shared/api/security.schema';
import type { StudioEvent } from '../../../../shared/events/events';
import type { EngineOptions } from '../../../engine';
import { chain, harness, recorder } from '../../../test-support/engine-harness';
import { processIdleTimeoutMs } from './process-executor.plugin';

const ALLOWED = ['/usr/bin/echo', '/usr/bin/env', '/bin/sh', '/usr/bin/sleep'];
const CANARY = 'canary-proc-7d1e';

function setup(process: { enabled?: boolean; allowedCommands?: string[] } = {}) {
  const rec = recorder();
  const options: EngineOptions = {
    security: { env: { YUKTA_SECRET_TOKEN: CANARY }, settings: { process: { enabled: true, allowedCommands: ALLOWED, ...process } } },
  };
  return { h: harness([rec.plugin], options), rec };
}

/** Resolves with the first event the predicate accepts (a real event, no polling). */
function nextEvent(h: ReturnType<typeof setup>['h'], accept: (e: StudioEvent) => boolean): Promise<StudioEvent> {
  return new Promise((resolve) => {
    const off = h.engine.subscribe((e) => {
      if (accept(e)) {
        off();
        resolve(e);
      }
    });
  });
}

function alive(pid: number): boolean {
  if (!existsSync(`/proc/${pid}/status`)) return false;
  return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
}

/** The kernel delivers SIGKILL at once but reaps asynchronously: wait (bounded) for the process to go. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 400 && alive(pid); i++) await new Promise((r) => setTimeout(r, 5));
  return !alive(pid);
}

describe('SEC-03 PROCESS_EXECUTOR', () => {
  it('is off unless yukta.process.enabled=true, and runs only allow-listed commands', async () => {
    const off = setup({ enabled: false });
    const a = await off.h.run(chain('off', [{ nodeId: 'p', type: 'PROCESS_EXECUTOR', config: { command: '/usr/bin/echo' } }]));
    expect(await off.h.engine.waitForRun(a)).toBe('FAILURE');
    expect(off.h.engine.getRun(a).nodes.find((n) => n.nodeId === 'p')!.error).toMatchObject({ code: 'PROCESS_DISABLED' });
    const on = setup();
    const b = await on.h.run(chain('other', [{ nodeId: 'p', type: 'PROCESS_EXECUTOR', config: { command: '/usr/bin/id' } }]));
    expect(await on.h.engine.waitForRun(b)).toBe('FAILURE');
    expect(on.h.engine.getRun(b).nodes.find((n) => n.nodeId === 'p')!.error).toMatchObject({ code: 'COMMAND_NOT_ALLOWED' });
  });

  it('passes arguments as an array (no shell: metacharacters stay text) and inherits no secrets from the host', async () => {
    const { h, rec } = setup();
    const echo = await h.run(
      chain('echo', [{ nodeId: 'p', type: 'PROCESS_EXECUTOR', config: { command: '/usr/bin/echo', args: ['hello', '${payload.name}'] } }]),
      { name: '$(id); rm -rf / `whoami` | cat' },
    );
    expect(await h.engine.waitForRun(echo)).toBe('SUCCESS');
    expect(rec.seen.at(-1)).toMatchObject({ exitCode: 0, stdout: 'hello $(id); rm -rf / `whoami` | cat\n' });
    process.env.YUKTA_TEST_HOST_SECRET = 'host-only';
    const env = await h.run(
      chain('env', [{ nodeId: 'p', type: 'PROCESS_EXECUTOR', config: { command: '/usr/bin/env', env: { TOKEN: 'decrypted:token' }, output: 'lines' } }]),
    );
    expect(await h.engine.waitForRun(env)).toBe('SUCCESS');
    delete process.env.YUKTA_TEST_HOST_SECRET;
    const lines = (rec.seen.at(-1) as { stdout: string[] }).stdout;
    expect(lines).toContain(`TOKEN=${SECRET_MASK}`); // the child got the secret; the output shows the mask
    expect(lines.some((l) => l.startsWith('YUKTA_'))).toBe(false);
    expect(JSON.stringify(h.events)).not.toContain(CANARY);
  });

  it('a non-zero exit fails the call; failOnExitCode false emits the exit code', async () => {
    const { h, rec } = setup();
    const failed = await h.run(
      chain('exit', [{ nodeId: 'p', type: 'PROCESS_EXECUTOR', config: { command: '/bin/sh', args: ['-c', 'echo oops >&2; exit 3'] } }]),
    );
    expect(await h.engine.waitForRun(failed)).toBe('FAILURE');
    expect(h.engine.getRun(failed).nodes.find((n) => n.nodeId === 'p')!.error).toMatchObject({
      code: 'PROCESS_EXIT',
      message: expect.stringContaining('exited with 3: oops'),
    });
    const kept = await h.run(
      chain('exit2', [{ nodeId: 'p', type: 'PROCESS_EXECUTOR', config: { command: '/bin/sh', args: ['-c', 'exit 4'], failOnExitCode: false } }]),
    );
    expect(await h.engine.waitForRun(kept)).toBe('SUCCESS');
    expect(rec.seen.at(-1)).toMatchObject({ exitCode: 4 });
  });

  it('timeout: after timeoutMs of engine time the whole process group gets SIGKILL', async () => {
    const { h } = setup();
    const started = nextEvent(h, (e) => e.type === 'LOG' && /^\d+$/.test(e.text));
    const id = await h.run(
      chain('slow', [
        {
          nodeId: 'p',
          type: 'PROCESS_EXECUTOR',
          config: { command: '/bin/sh', args: ['-c', '/usr/bin/sleep 1000 & echo $!; wait'], timeoutMs: 2_000, logOutput: true },
        },
      ]),
    );
    const grandchild = Number(((await started) as { text: string }).text);
    expect(alive(grandchild)).toBe(true);
    await h.clock.advanceAsync(2_000);
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    expect(h.engine.getRun(id).nodes.find((n) => n.nodeId === 'p')!.error).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(await gone(grandchild)).toBe(true);
  });

  it('KILL ends the run at once and kills the process group (the command and what it started)', async () => {
    const { h } = setup();
    const started = nextEvent(h, (e) => e.type === 'LOG' && /^\d+$/.test(e.text));
    const id = await h.run(
      chain('kill', [
        { nodeId: 'p', type: 'PROCESS_EXECUTOR', config: { command: '/bin/sh', args: ['-c', '/usr/bin/sleep 1000 & echo $!; wait'], logOutput: true } },
      ]),
    );
    const grandchild = Number(((await started) as { text: string }).text);
    await h.engine.control.send(id, { type: 'StopWorkflow', mode: 'KILL' }, 'test');
    expect(await h.engine.waitForRun(id)).toBe('CANCELLED');
    expect(await gone(grandchild)).toBe(true);
  });

  it('has the idle timeout of its timeout + 10 %, at least 5 s (ENG-05)', () => {
    expect(processIdleTimeoutMs(300_000)).toBe(330_000);
    expect(processIdleTimeoutMs(1_000)).toBe(5_000);
  });
});
