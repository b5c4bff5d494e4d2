import { describe, expect, it } from 'vitest';
import { Engine } from '../engine';
import { ManualClock } from '../runtime/clock';

const wf = {
  workflowId: 'w',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    { nodeId: 'o', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [{ source: 't', target: 'o' }],
};

async function setup(options: { ttl?: number; maxKeys?: number } = {}) {
  const clock = new ManualClock(1_000);
  const engine = new Engine({ clock, idempotencyTtlMs: options.ttl ?? 600_000, idempotencyMaxKeys: options.maxKeys ?? 100_000 });
  await engine.saveWorkflow('s', wf);
  const start = (idempotencyKey: string | undefined, payload: Record<string, unknown> = {}) =>
    engine.startRun({ session: 's', workflowId: 'w', payload, idempotencyKey });
  return { clock, engine, start };
}

describe('ADM-02 idempotent start', () => {
  it('returns the first execution id for a repeat with the same key', async () => {
    const { start, engine } = await setup();
    const a = await start('k1');
    const b = await start('k1');
    expect(b).toEqual(a);
    expect(engine.listRuns({ limit: 10 })).toHaveLength(1);
  });

  it('100 parallel starts with one key make 1 run and 100 identical ids', async () => {
    const { start, engine } = await setup();
    const ids = await Promise.all(Array.from({ length: 100 }, () => start('same')));
    expect(new Set(ids.map((r) => r.executionId)).size).toBe(1);
    expect(engine.listRuns({ limit: 1000 })).toHaveLength(1);
  });

  it('scopes keys by session and workflow, and starts anew without a key', async () => {
    const { start, engine } = await setup();
    await engine.saveWorkflow('s', { ...wf, workflowId: 'w2' });
    const a = await start('k');
    const other = await engine.startRun({ session: 's', workflowId: 'w2', payload: {}, idempotencyKey: 'k' });
    expect(other.executionId).not.toBe(a.executionId);
    expect((await start(undefined)).executionId).not.toBe((await start(undefined)).executionId);
  });

  it('forgets a key after the TTL (virtual time)', async () => {
    const { start, clock } = await setup({ ttl: 60_000 });
    const a = await start('k');
    clock.advance(59_999);
    expect(await start('k')).toEqual(a);
    clock.advance(1);
    expect((await start('k')).executionId).not.toBe(a.executionId);
  });

  it('refuses the same key with a different payload (CONFLICT)', async () => {
    const { start } = await setup();
    await start('k', { a: 1 });
    await expect(start('k', { a: 2 })).rejects.toMatchObject({ code: 'CONFLICT', path: 'idempotencyKey' });
    // Key order does not make a payload different.
    await expect(start('k', { a: 1 })).resolves.toBeTruthy();
  });

  it('does not remember a failed start', async () => {
    const { engine } = await setup();
    await expect(engine.startRun({ session: 's', workflowId: 'missing', payload: {}, idempotencyKey: 'k' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await engine.saveWorkflow('s', { ...wf, workflowId: 'missing' });
    await expect(engine.startRun({ session: 's', workflowId: 'missing', payload: {}, idempotencyKey: 'k' })).resolves.toBeTruthy();
  });

  it('evicts the oldest key beyond the cap, letting its repeat start again', async () => {
    const { start } = await setup({ maxKeys: 2 });
    const a = await start('a');
    await start('b');
    await start('c');
    expect((await start('a')).executionId).not.toBe(a.executionId);
  });
});
