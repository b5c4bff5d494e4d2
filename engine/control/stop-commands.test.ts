import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { EngineError } from '../engine-errors';
import { chain, gate, harness, processor, recorder } from '../test-support/engine-harness';

/** True while a process with this id exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('CTL-03 stop modes through the command pipeline', () => {
  it('KILL: a plugin that never resolves and a child `sleep 1000` → CANCELLED at once, no child process left', async () => {
    const children: Array<{ pid: number; exited: Promise<unknown> }> = [];
    // Runs `sleep 1000` in its own process group and SIGKILLs the group when its AbortSignal fires.
    const spawner = processor('SPAWN', (_m, ctx) => {
      const child = spawn('sleep', ['1000'], { detached: true, stdio: 'ignore' });
      children.push({ pid: child.pid!, exited: once(child, 'exit') });
      ctx.signal.addEventListener('abort', () => process.kill(-child.pid!, 'SIGKILL'), { once: true });
      return new Promise<never>(() => {});
    });
    const never = processor('NEVER', () => new Promise<never>(() => {}));
    const h = harness([spawner, never, recorder().plugin, recorder('REC2').plugin]);
    const def = {
      workflowId: 'kill',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'p', type: 'SPAWN' },
        { nodeId: 'n', type: 'NEVER' },
        { nodeId: 'out', type: 'REC' },
        { nodeId: 'out2', type: 'REC2' },
      ],
      edges: [
        { source: 't', target: 'p' },
        { source: 'p', target: 'out' },
        { source: 't', target: 'n' },
        { source: 'n', target: 'out2' },
      ],
    };
    const id = await h.run(def);
    await h.settle();
    expect(children).toHaveLength(1);
    expect(alive(children[0]!.pid)).toBe(true);
    const before = h.clock.now();
    await h.engine.control.send(id, { type: 'StopWorkflow', mode: 'KILL' }, 'cli');
    expect(await h.engine.waitForRun(id)).toBe('CANCELLED'); // no engine time passed: abandoned, not awaited
    expect(h.clock.now()).toBe(before);
    expect(h.statuses(id)).toMatchObject({ p: 'CANCELLED', n: 'CANCELLED' });
    await children[0]!.exited; // the SIGKILL arrived
    expect(alive(children[0]!.pid)).toBe(false);
  });

  it('DRAIN ends the run STOPPED with everything produced delivered; CANCEL ends it CANCELLED', async () => {
    const endless = processor('TICK', async function* (_m, ctx) {
      for (let i = 0; ; i++) {
        await ctx.sleep(10);
        yield { payload: { i } };
      }
    });
    const rec = recorder();
    const h = harness([{ ...endless, kind: 'trigger' } as never, rec.plugin]);
    const def = {
      workflowId: 'drain',
      nodes: [
        { nodeId: 'src', type: 'TICK' },
        { nodeId: 'out', type: 'REC' },
      ],
      edges: [{ source: 'src', target: 'out' }],
    };
    const id = await h.run(def);
    await h.clock.advanceAsync(55);
    await h.engine.control.send(id, { type: 'StopWorkflow', mode: 'DRAIN' }, 'ui:local');
    await h.clock.advanceAsync(100);
    expect(await h.engine.waitForRun(id)).toBe('STOPPED');
    expect(rec.seen.length).toBe(h.engine.getRun(id).nodes.find((n) => n.nodeId === 'src')!.counts.emitted);
    const second = await h.run(def);
    await h.clock.advanceAsync(25);
    await h.engine.control.send(second, { type: 'StopWorkflow' }, 'ui:local'); // CANCEL is the default
    expect(await h.engine.waitForRun(second)).toBe('CANCELLED');
  });

  it('StopNode ends one node STOPPED; its children see the end of their input; an ended node is refused', async () => {
    const release = gate();
    const hold = processor('HOLD', async (m) => (await release.opened, [{ payload: m.payload }]));
    const rec = recorder();
    const h = harness([hold, rec.plugin]);
    const id = await h.run(chain('stopnode', [{ nodeId: 'x', type: 'HOLD' }]));
    await h.settle();
    await h.engine.control.send(id, { type: 'StopNode', nodeId: 'x', mode: 'KILL' }, 'ui:local');
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(h.statuses(id)).toMatchObject({ x: 'STOPPED', out: 'SUCCESS' });
    const again = await h.engine.control.send(id, { type: 'StopNode', nodeId: 'x' }, 'ui:local').catch((e: EngineError) => e);
    expect(again).toMatchObject({ code: 'CONFLICT' });
  });

  it('StopWorkflow takes a QUEUED start out of the queue (CANCELLED without running)', async () => {
    const release = gate();
    const hold = processor('HOLD', async (m) => (await release.opened, [{ payload: m.payload }]));
    const h = harness([hold, recorder().plugin], { scheduler: { limits: { maxConcurrent: 1 } } });
    const first = await h.run(chain('q', [{ nodeId: 'x', type: 'HOLD' }]));
    const second = (await h.engine.startRun({ session: 'test', workflowId: 'q', payload: {} })).executionId;
    expect(h.engine.getRun(second).status).toBe('QUEUED');
    await h.engine.control.send(second, { type: 'StopWorkflow' }, 'ui:local');
    expect(await h.engine.waitForRun(second)).toBe('CANCELLED');
    const paused = await h.engine.control.send(second, { type: 'PauseWorkflow' }, 'ui:local').catch((e: EngineError) => e);
    expect(paused).toMatchObject({ code: 'CONFLICT', message: `run "${second}" is CANCELLED, not running` });
    release.open();
    expect(await h.engine.waitForRun(first)).toBe('SUCCESS');
  });
});
