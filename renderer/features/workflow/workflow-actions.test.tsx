// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StudioEvent } from '../../../shared/events/events';
import type { Status } from '../../../shared/status/status';
import { useLive } from '../../store/live-store';
import { useRunFeed } from '../../store/run-feed-store';
import { useStudio } from '../../store/studio-store';
import { openStudio } from '../../test-support/open-app';

afterEach(cleanup);

type Fake = Awaited<ReturnType<typeof openStudio>>['fake'];

/** The events the host publishes for a run of the CHAIN workflow (trigger → shape → print) that ends SUCCESS. */
function runEvents(executionId: string, version: string): StudioEvent[] {
  let seq = 100;
  const run = (status: Status, nodeIds?: string[]): StudioEvent => ({
    type: 'EXECUTION_STATUS',
    seq: ++seq,
    executionId,
    at: 2000 + seq,
    session: 'default',
    workflowId: 'hello',
    definitionVersion: version,
    status,
    ...(nodeIds ? { nodeIds } : {}),
  });
  const node = (nodeId: string, status: Status, received: number): StudioEvent => ({
    type: 'NODE_STATUS',
    seq: ++seq,
    executionId,
    at: 2000 + seq,
    nodeId,
    status,
    counts: { received, emitted: received },
  });
  return [
    run('PENDING', ['start', 'shape', 'print']),
    run('RUNNING'),
    node('start', 'RUNNING', 0),
    node('shape', 'RUNNING', 1),
    node('start', 'SUCCESS', 1),
    { type: 'NODE_RESULT', seq: ++seq, executionId, at: 2100, nodeId: 'print', messageId: 'shape#1', payload: { ok: true } },
    node('shape', 'SUCCESS', 1),
    node('print', 'SUCCESS', 1),
    run('SUCCESS'),
  ];
}

/** Every operation the studio called since the counter was reset (the event subscription is not a call). */
function calledOperations(fake: Fake): string[] {
  const called: string[] = [];
  for (const [name, fn] of Object.entries(fake.client)) {
    if (name === 'subscribe' || !vi.isMockFunction(fn)) continue;
    for (let i = 0; i < fn.mock.calls.length; i++) called.push(name);
  }
  return called.sort();
}

/** `runs.start` publishes the run's events to the subscription before it answers (or after, `late`), as the host may. */
function publishOnStart(fake: Fake, frames: { frame(): void }, late = false): { executionId: () => string } {
  const original = fake.client['runs.start'];
  let id = '';
  fake.client['runs.start'] = vi.fn(async (input: Parameters<typeof original>[0]) => {
    const answer = await original(input);
    id = answer.executionId;
    const version = useStudio.getState().storedVersion ?? '';
    if (late) setTimeout(() => act(() => (fake.emit(runEvents(id, version)), frames.frame())), 0);
    else act(() => (fake.emit(runEvents(id, version)), frames.frame()));
    return answer;
  }) as typeof original;
  return { executionId: () => id };
}

describe('STU-03 a Run click costs one round trip (the new run is shown from its events)', () => {
  it('a saved workflow: runs.start only — no runs.get, no control.state — and the canvas, run status and results come from the events', async () => {
    const { fake, frames } = await openStudio('#/w/default/hello');
    await waitFor(() => expect(useStudio.getState().storedWorkflowId).toBe('hello'));
    const started = publishOnStart(fake, frames);
    vi.clearAllMocks();

    fireEvent.click(screen.getByTestId('run-button'));
    await waitFor(() => expect(useLive.getState().executionId).toBe(started.executionId()));

    expect(calledOperations(fake)).toEqual(['runs.start']);
    expect(useLive.getState().runStatus).toBe('SUCCESS');
    for (const id of ['start', 'shape', 'print']) expect(screen.getByTestId(`node-${id}`).getAttribute('data-status')).toBe('SUCCESS');
    expect(useRunFeed.getState().results.items).toEqual([{ nodeId: 'print', messageId: 'shape#1', payload: { ok: true } }]);
  });

  it('events that arrive after the answer are shown too, starting from every node PENDING', async () => {
    const { fake, frames } = await openStudio('#/w/default/hello');
    await waitFor(() => expect(useStudio.getState().storedWorkflowId).toBe('hello'));
    const started = publishOnStart(fake, frames, true);
    vi.clearAllMocks();

    fireEvent.click(screen.getByTestId('run-button'));
    await waitFor(() => expect(useLive.getState().runStatus).toBe('SUCCESS'));

    expect(useLive.getState().executionId).toBe(started.executionId());
    expect(calledOperations(fake)).toEqual(['runs.start']);
    expect(screen.getByTestId('node-print').getAttribute('data-status')).toBe('SUCCESS');
  });

  it('an unsaved graph: the save (with the lists it refreshes) and runs.start — still no runs.get or control.state', async () => {
    const { fake, frames } = await openStudio('#/w/default/hello');
    await waitFor(() => expect(useStudio.getState().storedWorkflowId).toBe('hello'));
    act(() => useStudio.getState().edit({ kind: 'set-label', nodeId: 'shape', label: 'Shape it' }));
    expect(useStudio.getState().dirty).toBe(true);
    publishOnStart(fake, frames);
    vi.clearAllMocks();

    fireEvent.click(screen.getByTestId('run-button'));
    await waitFor(() => expect(useLive.getState().runStatus).toBe('SUCCESS'));

    expect(calledOperations(fake)).toEqual(['runs.start', 'sessions.list', 'workflows.list', 'workflows.save', 'workflows.versions']);
  });
});
