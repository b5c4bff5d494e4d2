import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineError } from '../engine-errors';
import type { WorkflowDefinitionInput } from '../../shared/workflow/definition.schema';
import { Engine } from '../engine';
import { builtinPlugins } from '../plugins/builtin';
import type { Plugin } from '../plugins/contract';
import { ManualClock } from '../runtime/clock';
import { openDatabase } from '../store/sqlite/open-database';
import { SqliteCheckpointStore } from '../store/sqlite/sqlite-checkpoint-store';
import { SqliteDefinitionStore } from '../store/sqlite/sqlite-definition-store';
import { SqliteExecutionLog } from '../store/sqlite/sqlite-execution-log';
import { SqliteWriter } from '../store/sqlite/sqlite-writer';
import { DurableEngines } from '../test-support/durable-engine';
import { gate, processor, recorder } from '../test-support/engine-harness';

/**
 * STEP processors of one process's life: every call is counted (`node` or `run/node`), a message whose
 * payload names the node in `holdAt` hangs there while `holding` (the life that will crash), and a payload
 * with `park: true` waits for `parked.open()`.
 */
function lifePlugins(holding: boolean) {
  const calls: string[] = [];
  const parked = gate();
  const hang = new Promise<never>(() => undefined);
  const step = processor('STEP', async (m, ctx) => {
    calls.push(`${ctx.executionId}/${ctx.nodeId}`);
    const payload = m.payload as { holdAt?: string; park?: boolean; trail?: string[] };
    if (holding && payload.holdAt === ctx.nodeId) await hang;
    if (payload.park) await parked.opened;
    return [{ payload: { ...payload, trail: [...(payload.trail ?? []), ctx.nodeId] } }];
  });
  const fan = processor('FAN', (m) => [{ payload: { ...(m.payload as object), i: 1 } }, { payload: { ...(m.payload as object), i: 2 } }]);
  const rec = recorder();
  const plugins = [step, fan, rec.plugin] as Array<Plugin<never>>;
  const nodesCalled = (executionId?: string) =>
    calls.filter((c) => executionId === undefined || c.startsWith(`${executionId}/`)).map((c) => c.slice(c.indexOf('/') + 1));
  return { plugins, calls, nodesCalled, parked, seen: rec.seen };
}

/** t → a (STEP) → b (STEP) → out (REC). */
const FLOW: WorkflowDefinitionInput = {
  workflowId: 'flow',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    { nodeId: 'a', type: 'STEP' },
    { nodeId: 'b', type: 'STEP' },
    { nodeId: 'out', type: 'REC' },
  ],
  edges: [
    { source: 't', target: 'a' },
    { source: 'a', target: 'b' },
    { source: 'b', target: 'out' },
  ],
};

/** t → fan (FAN: two messages) → approve (WAIT_FOR_SIGNAL) → ok (REC). */
const APPROVALS: WorkflowDefinitionInput = {
  workflowId: 'approvals',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    { nodeId: 'fan', type: 'FAN' },
    { nodeId: 'approve', type: 'WAIT_FOR_SIGNAL', config: { signal: 'manager' } },
    { nodeId: 'ok', type: 'REC' },
  ],
  edges: [
    { source: 't', target: 'fan' },
    { source: 'fan', target: 'approve' },
    { source: 'approve', target: 'ok' },
  ],
};

const lives: DurableEngines[] = [];
async function newLives(): Promise<DurableEngines> {
  const l = await DurableEngines.create();
  lives.push(l);
  return l;
}
afterEach(async () => {
  for (const l of lives.splice(0)) await l.close();
});

/** Lets the engine work until `condition` holds (no time passes; fails after many turns). */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}

async function refusal(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof EngineError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

const start = (engine: Engine, workflowId: string, payload: Record<string, unknown>, idempotencyKey?: string) =>
  engine.startRun({ session: 'test', workflowId, payload, idempotencyKey }).then((r) => r.executionId);

/** A run of FLOW left hanging at node b by a process that then crashes. */
async function crashedAtB(l: DurableEngines, payload: Record<string, unknown> = { n: 1 }): Promise<string> {
  const life = lifePlugins(true);
  const { engine } = await l.boot(life.plugins);
  await engine.saveWorkflow('test', FLOW);
  const id = await start(engine, 'flow', { ...payload, holdAt: 'b' });
  await until(() => life.nodesCalled(id).includes('b'), 'b called');
  await l.crash();
  return id;
}

describe('DUR-01 boot recovery', () => {
  it('marks a run the crash interrupted ABORTED (once, across reboots) and restores finished runs into history', async () => {
    const l = await newLives();
    const life = lifePlugins(true);
    const { engine } = await l.boot(life.plugins);
    await engine.saveWorkflow('test', FLOW);
    const finished = await start(engine, 'flow', { n: 1 });
    expect(await engine.waitForRun(finished)).toBe('SUCCESS');
    const stuck = await start(engine, 'flow', { n: 2, holdAt: 'b' });
    await until(() => life.nodesCalled(stuck).includes('b'), 'b called');
    await l.crash();

    const second = await l.boot(lifePlugins(false).plugins);
    const run = second.engine.getRun(stuck);
    expect(run.status).toBe('ABORTED');
    expect(run.error?.code).toBe('ABORTED');
    expect(Object.fromEntries(run.nodes.map((n) => [n.nodeId, n.status]))).toMatchObject({ a: 'SUCCESS', b: 'ABORTED', out: 'ABORTED' });
    expect(second.engine.getRun(finished).status).toBe('SUCCESS');
    expect(
      second.engine
        .listRuns({ limit: 10 })
        .map((r) => r.executionId)
        .sort(),
    ).toEqual([finished, stuck].sort());
    await l.crash();

    const third = await l.boot(lifePlugins(false).plugins);
    const aborts = (await third.stores.log!.runEntries(stuck)).filter((e) => e.type === 'RUN_ABORTED');
    expect(aborts).toHaveLength(1);
    expect(aborts[0]!.actor).toBe('recovery');
    expect(third.engine.getRun(stuck).status).toBe('ABORTED');
  });
});

describe('DUR-03 resume', () => {
  it('resumes an ABORTED run once, never calling a node that has an end marker again; a second resume is CONFLICT, also after another restart', async () => {
    const l = await newLives();
    const id = await crashedAtB(l);
    const life = lifePlugins(false);
    const { engine, stores } = await l.boot(life.plugins);
    expect((await stores.checkpoints.read(id, 'a'))?.end).toBe('SUCCESS');
    expect((await stores.checkpoints.read(id, 'b'))?.end ?? null).toBeNull();

    // Two callers at once: one resumes, the other is refused.
    const both = await Promise.allSettled([engine.resumeRun(id, 'ops'), engine.resumeRun(id, 'ops')]);
    const won = both.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const resumed = (won[0] as PromiseFulfilledResult<{ executionId: string; resumedFrom: string; queued: boolean }>).value;
    expect(resumed).toMatchObject({ resumedFrom: id, queued: false });
    expect(((both.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as EngineError).code).toBe('CONFLICT');
    expect(await engine.waitForRun(resumed.executionId)).toBe('SUCCESS');
    // a (end marker SUCCESS) was replayed, not called; b ran again and out got b's output once.
    expect(life.nodesCalled()).toEqual(['b']);
    expect(life.seen).toEqual([{ n: 1, holdAt: 'b', trail: ['a', 'b'] }]);
    expect(engine.getRun(resumed.executionId).definitionVersion).toBe(engine.getRun(id).definitionVersion);

    const again = await refusal(engine.resumeRun(id, 'ops'));
    expect(again.code).toBe('CONFLICT');
    expect(again.message).toContain(`already resumed as "${resumed.executionId}"`);
    await l.crash();

    const later = await l.boot(lifePlugins(false).plugins);
    const afterRestart = await refusal(later.engine.resumeRun(id, 'ops'));
    expect(afterRestart.code).toBe('CONFLICT');
    expect(afterRestart.message).toContain(resumed.executionId);
    expect((await refusal(later.engine.resumeRun(resumed.executionId, 'ops'))).message).toMatch(/is SUCCESS, not ABORTED/);
    expect((await refusal(later.engine.resumeRun('nope', 'ops'))).code).toBe('NOT_FOUND');
  });

  it('refuses to resume when the workflow changed or was deleted since the run started', async () => {
    const l = await newLives();
    const id = await crashedAtB(l);
    const life = lifePlugins(false);
    const { engine } = await l.boot(life.plugins);
    await engine.saveWorkflow('test', { ...FLOW, description: 'changed' });
    const changed = await refusal(engine.resumeRun(id, 'ops'));
    expect(changed.code).toBe('CONFLICT');
    expect(changed.message).toMatch(/workflow "flow" is now at version [0-9a-f]+, but run .* ran version/);
    await engine.workflows.delete('test', 'flow');
    expect((await refusal(engine.resumeRun(id, 'ops'))).message).toMatch(/was deleted/);
    expect(life.calls).toEqual([]);
    // A refused resume claims nothing: with the definition back, it resumes.
    await engine.saveWorkflow('test', FLOW);
    const resumed = await engine.resumeRun(id, 'ops');
    expect(await engine.waitForRun(resumed.executionId)).toBe('SUCCESS');
  });

  it('CTL-05 WAIT_FOR_SIGNAL: an answer given before the crash is reused for the same message; only the unanswered one waits again', async () => {
    const l = await newLives();
    const first = lifePlugins(true);
    const one = await l.boot(first.plugins);
    await one.engine.saveWorkflow('test', APPROVALS);
    const id = await start(one.engine, 'approvals', { order: 7 });
    await until(() => one.engine.control.approvals({}).length === 1, 'first approval open');
    const answered = one.engine.control.approvals({})[0]!.messageId;
    expect((await one.engine.control.send(id, { type: 'Signal', nodeId: 'approve', decision: 'APPROVE', data: { by: 'ada' } }, 'ops')).signal).toBe('ACCEPTED');
    await until(() => first.seen.length === 1 && one.engine.control.approvals({}).length === 1, 'second approval open');
    const unanswered = one.engine.control.approvals({})[0]!.messageId;
    expect(unanswered).not.toBe(answered);
    await l.crash();

    const life = lifePlugins(false);
    const two = await l.boot(life.plugins);
    const events: string[] = [];
    two.engine.subscribe((e) => {
      if (e.type === 'APPROVAL') events.push(`${e.messageId} ${e.state}`);
    });
    const resumed = await two.engine.resumeRun(id, 'ops');
    await until(() => two.engine.control.approvals({ executionId: resumed.executionId }).length === 1, 'approval open after resume');
    expect(two.engine.control.approvals({}).map((a) => a.messageId)).toEqual([unanswered]);
    // The first message was answered from the recorded answer (no approval opened for it) and delivered again (at least once).
    expect(events).toEqual([`${unanswered} OPEN`]);
    expect(life.seen).toEqual([{ order: 7, i: 1 }]);
    expect(life.calls).toEqual([]); // fan had its end marker: replayed, not called
    await two.engine.control.send(resumed.executionId, { type: 'Signal', nodeId: 'approve', decision: 'APPROVE' }, 'ops');
    expect(await two.engine.waitForRun(resumed.executionId)).toBe('SUCCESS');
    expect(life.seen).toEqual([
      { order: 7, i: 1 },
      { order: 7, i: 2 },
    ]);
  });

  it('takes its slot through the scheduler: with the one slot held, the resume waits QUEUED and runs when it frees', async () => {
    const l = await newLives();
    const id = await crashedAtB(l);
    const life = lifePlugins(false);
    const { engine } = await l.boot(life.plugins, { scheduler: { limits: { maxConcurrent: 1 } } });
    const blocker = await start(engine, 'flow', { park: true });
    await until(() => life.nodesCalled(blocker).includes('a'), 'blocker parked');
    const resumed = await engine.resumeRun(id, 'ops');
    expect(resumed.queued).toBe(true);
    expect((await engine.schedulerView()).queued.map((q) => q.executionId)).toEqual([resumed.executionId]);
    expect(life.nodesCalled(resumed.executionId)).toEqual([]);
    life.parked.open();
    expect(await engine.waitForRun(resumed.executionId)).toBe('SUCCESS');
    expect(life.nodesCalled(resumed.executionId)).toEqual(['b']);
  });

  it('ADM-02 idempotency keys survive a restart: the same key gives the same run, finished or aborted, and starts nothing', async () => {
    const l = await newLives();
    const first = lifePlugins(true);
    const one = await l.boot(first.plugins);
    await one.engine.saveWorkflow('test', FLOW);
    const done = await start(one.engine, 'flow', { n: 1 }, 'key-done');
    expect(await one.engine.waitForRun(done)).toBe('SUCCESS');
    const hung = await start(one.engine, 'flow', { n: 2, holdAt: 'b' }, 'key-hung');
    await until(() => first.nodesCalled(hung).includes('b'), 'b called');
    await l.crash();

    const life = lifePlugins(false);
    const { engine } = await l.boot(life.plugins);
    expect(await start(engine, 'flow', { n: 1 }, 'key-done')).toBe(done);
    expect(await start(engine, 'flow', { n: 2, holdAt: 'b' }, 'key-hung')).toBe(hung);
    expect((await refusal(start(engine, 'flow', { n: 3 }, 'key-done'))).code).toBe('CONFLICT');
    expect(life.calls).toEqual([]);
    expect(engine.listRuns({ workflowId: 'flow', limit: 10 })).toHaveLength(2);
  });

  it('CTL-04 restart-from-node works after an app restart: the archive is rebuilt from the SQLite log and checkpoints', async () => {
    const l = await newLives();
    const first = lifePlugins(false);
    const one = await l.boot(first.plugins);
    await one.engine.saveWorkflow('test', FLOW);
    const id = await start(one.engine, 'flow', { n: 5 });
    expect(await one.engine.waitForRun(id)).toBe('SUCCESS');
    await l.close();

    const life = lifePlugins(false);
    const { engine } = await l.boot(life.plugins);
    const answer = await engine.control.send(id, { type: 'RestartFromNode', nodeId: 'b' }, 'ops');
    const again = answer.newExecutionId!;
    expect(await engine.waitForRun(again)).toBe('SUCCESS');
    expect(life.nodesCalled()).toEqual(['b']);
    expect(life.seen).toEqual([{ n: 5, trail: ['a', 'b'] }]);
    const whole = (await engine.control.send(id, { type: 'Restart' }, 'ops')).newExecutionId!;
    expect(await engine.waitForRun(whole)).toBe('SUCCESS');
    expect(life.nodesCalled(whole)).toEqual(['a', 'b']);
  });
});

describe('DUR-01 a full disk at the engine', () => {
  it('refuses the start with a clear error, acknowledges nothing unsaved, keeps serving, and starts again once space returns', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'yukta-full-')), 'yukta.db');
    const db = openDatabase(file);
    const writeErrors: string[] = [];
    const writer = new SqliteWriter(db, { onError: (e) => writeErrors.push(e.code) });
    const log = new SqliteExecutionLog(writer);
    const engine = new Engine({
      plugins: [...builtinPlugins(), ...lifePlugins(false).plugins],
      clock: new ManualClock(0),
      definitions: new SqliteDefinitionStore(db),
      durability: { log },
      control: { checkpoints: new SqliteCheckpointStore(writer) },
      scheduler: { limits: { shutdownTimeoutMs: 0 } },
    });
    await engine.ready;
    await engine.saveWorkflow('test', FLOW);
    const before = await start(engine, 'flow', { n: 1 });
    expect(await engine.waitForRun(before)).toBe('SUCCESS');
    await log.flush();

    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const big = { blob: 'x'.repeat(256 * 1024) };
    const refused = await refusal(start(engine, 'flow', big));
    expect(refused.code).toBe('UNAVAILABLE');
    expect(refused.message).toMatch(/the start could not be saved, so it was refused.*the disk is full/);
    expect(writeErrors).toContain('STORE_FULL');
    // Still serving: reads work, and a second start is refused the same way rather than crashing anything.
    expect(engine.getRun(before).status).toBe('SUCCESS');
    expect((await refusal(start(engine, 'flow', { n: 2 }))).code).toBe('UNAVAILABLE');
    expect(engine.listRuns({ limit: 10 }).filter((r) => r.status === 'RUNNING')).toEqual([]);

    db.pragma('max_page_count = 1073741823');
    const after = await start(engine, 'flow', { n: 3 });
    expect(await engine.waitForRun(after)).toBe('SUCCESS');
    await engine.shutdown();
    writer.close();
    db.close();

    // What a reboot finds: every acknowledged start, and no refused run left unfinished.
    const reopened = openDatabase(file);
    const again = new SqliteExecutionLog(new SqliteWriter(reopened));
    const entries = await again.entries();
    const started = new Set(entries.filter((e) => e.type === 'RUN_STARTED').map((e) => e.runId));
    expect(started.has(before) && started.has(after)).toBe(true);
    const ended = new Set(entries.filter((e) => e.type === 'RUN_FINISHED').map((e) => e.runId));
    expect([...started].filter((id) => !ended.has(id))).toEqual([]);
    reopened.close();
  });
});
