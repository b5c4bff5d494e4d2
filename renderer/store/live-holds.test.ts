import { describe, expect, it } from 'vitest';
import { heldMs } from './hold-clock';
import { createLiveStore } from './live-store';
import { runFailure, runHoldState } from '../features/runs/run-state';

const counts = { received: 1, emitted: 0 };

describe('STU-04 held and waiting states in the live store (issue 15 item 4)', () => {
  it('a message held at the valve from 1000 to 4000 makes 3000 ms held; the run is held as long', () => {
    const live = createLiveStore();
    live.getState().show('r1');
    live.getState().applyNodes('r1', [{ nodeId: 'mark', status: 'RUNNING', counts, at: 500 }]);
    live.getState().applyNodes('r1', [{ nodeId: 'mark', status: 'RUNNING', counts, at: 1000, held: 'm1' }]);
    expect(runHoldState('r1', live.getState().nodes, []).heldAt).toEqual(['mark']);
    live.getState().applyNodes('r1', [{ nodeId: 'mark', status: 'RUNNING', counts, at: 4000, held: null }]);
    live.getState().applyNodes('r1', [{ nodeId: 'mark', status: 'SUCCESS', counts, at: 4500 }]);
    const node = live.getState().nodes['mark']!;
    expect(heldMs(node.hold, node.endedAt!)).toBe(3000);
    expect(heldMs(live.getState().runHold, 4500)).toBe(3000);
  });

  it('two messages waiting for a signal at once count their overlap once, on the node and the run', () => {
    const live = createLiveStore();
    live.getState().show('r2');
    live.getState().applyNodes('r2', [{ nodeId: 'gate', status: 'RUNNING', counts, at: 0 }]);
    live.getState().applyWaits('r2', [
      { nodeId: 'gate', open: true, at: 100 },
      { nodeId: 'gate', open: true, at: 200 },
    ]);
    live.getState().applyWaits('r2', [{ nodeId: 'gate', open: false, at: 700 }]);
    live.getState().applyWaits('r2', [{ nodeId: 'gate', open: false, at: 900 }]);
    expect(heldMs(live.getState().nodes['gate']!.hold, 1000)).toBe(800);
    expect(heldMs(live.getState().runHold, 1000)).toBe(800);
    // Waits of another run are not this one's.
    live.getState().applyWaits('other', [{ nodeId: 'gate', open: true, at: 950 }]);
    expect(live.getState().nodes['gate']!.hold?.open).toBe(0);
  });

  it('a wait that began before the run was shown counts from its since (the inbox), and is not counted twice', () => {
    const live = createLiveStore();
    live.getState().show('r4');
    const approvals = [
      { executionId: 'r4', nodeId: 'gate', since: 1000 },
      { executionId: 'other', nodeId: 'gate', since: 10 },
    ];
    live.getState().reconcileWaits(approvals);
    live.getState().reconcileWaits(approvals);
    expect(live.getState().nodes['gate']!.hold?.open).toBe(1);
    live.getState().applyWaits('r4', [{ nodeId: 'gate', open: false, at: 3500 }]);
    expect(heldMs(live.getState().nodes['gate']!.hold, 9999)).toBe(2500);
  });

  it('a held message learned from a control.state read (no event time) holds from when it was read', () => {
    const live = createLiveStore();
    live.getState().show('r5');
    live.getState().applyNodes('r5', [{ nodeId: 'mark', status: 'RUNNING', counts, heldAt: 2000, held: 'm1' }]);
    live.getState().applyNodes('r5', [{ nodeId: 'mark', status: 'RUNNING', counts, at: 2600, held: null }]);
    expect(heldMs(live.getState().nodes['mark']!.hold, 9999)).toBe(600);
  });

  it('keeps the first error a node reported (the Error block and the strip read it)', () => {
    const live = createLiveStore();
    live.getState().show('r3');
    const error = { name: 'Error', message: 'card declined', attempt: 2, maxAttempts: 2, input: { id: 7 } };
    live.getState().applyNodes('r3', [{ nodeId: 'charge', status: 'FAILURE', counts, at: 10, error }]);
    live.getState().applyNodes('r3', [{ nodeId: 'charge', status: 'FAILURE', counts, at: 20 }]);
    expect(live.getState().nodes['charge']!.error).toEqual(error);
  });
});

describe('STU-03 the run banner: "Failed at <node>: <message>" (issue 15 item 1)', () => {
  const nodes = { charge: { status: 'FAILURE' as const, counts, error: { name: 'Error', message: 'card declined' } } };

  it("names the node the run error names, with the node's own message", () => {
    expect(runFailure({ error: { name: 'Error', message: 'node "charge" failed: card declined', nodeId: 'charge' } }, nodes)).toEqual({
      nodeId: 'charge',
      message: 'card declined',
    });
  });

  it('falls back to the failed node on the canvas, or to the run message alone', () => {
    expect(runFailure({ error: { name: 'Error', message: 'node "charge" failed: card declined' } }, nodes)).toEqual({
      nodeId: 'charge',
      message: 'card declined',
    });
    expect(runFailure({ error: { name: 'RunDeadline', message: 'the run took longer than 5000 ms' } }, {})).toEqual({
      nodeId: null,
      message: 'the run took longer than 5000 ms',
    });
    expect(runFailure({}, {})).toBeNull();
  });

  it('counts waiting approvals of the run only', () => {
    const approval = (executionId: string) => ({
      executionId,
      session: 'default',
      workflowId: 'w',
      nodeId: 'gate',
      signal: 'go',
      messageId: 'm',
      payload: {},
      since: 0,
    });
    expect(runHoldState('r1', null, [approval('r1'), approval('r2'), approval('r1')]).waiting).toBe(2);
  });
});
