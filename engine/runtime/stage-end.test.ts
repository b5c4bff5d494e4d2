import { describe, expect, it } from 'vitest';
import type { JoinTrigger } from '../../shared/workflow/engine-policy.schema';
import { CancelledError, NodeTimeoutError } from './errors';
import type { PreparedNode } from './prepared-workflow';
import { StageEnd } from './stage-end';

const node = (trigger: JoinTrigger = 'ALL_SUCCESS', incoming = 1) => ({ nodeId: 'n', trigger, incoming }) as PreparedNode;
const run = (cancelled = false) => ({ cancelled });

describe('ENG-06 / ENG-03 how a node ends (StageEnd, the one place)', () => {
  it('work that returned ends SUCCESS; work that threw ends FAILURE with the error', () => {
    expect(new StageEnd(node(), run()).end(false)).toEqual({ status: 'SUCCESS' });
    expect(new StageEnd(node(), run()).end(true, new TypeError('bad'))).toEqual({ status: 'FAILURE', error: { name: 'TypeError', message: 'bad' } });
  });

  it('a halt wins over the work: STOPPED and TIMED_OUT keep their error, CANCELLED has none', () => {
    const stopped = new StageEnd(node(), run());
    stopped.haltWith({ status: 'STOPPED', error: new CancelledError('node "n" stopped') });
    expect(stopped.stopped).toBe(true);
    expect(stopped.end(true, new Error('later'))).toEqual({
      status: 'STOPPED',
      error: { name: 'CancelledError', message: 'node "n" stopped', code: 'CANCELLED' },
    });
    const timed = new StageEnd(node(), run());
    timed.haltWith({ status: 'TIMED_OUT', error: new NodeTimeoutError('idle', 'IDLE_TIMEOUT') });
    expect(timed.end(false)).toEqual({ status: 'TIMED_OUT', error: { name: 'NodeTimeoutError', message: 'idle', code: 'IDLE_TIMEOUT' } });
    const cancelled = new StageEnd(node(), run());
    cancelled.haltWith({ status: 'CANCELLED', error: new CancelledError('x') });
    expect(cancelled.end(true, new Error('x'))).toEqual({ status: 'CANCELLED' });
  });

  it('ALL_SUCCESS: a failed parent stops the input and the node ends UPSTREAM_FAILED, even when the run is cancelled around it', () => {
    const r = run();
    const end = new StageEnd(node('ALL_SUCCESS'), r);
    expect(end.parentEnded('SUCCESS')).toBe(false);
    expect(end.parentEnded('TIMED_OUT')).toBe(true);
    expect(end.failedUpstream).toBe(true);
    r.cancelled = true;
    end.haltWith({ status: 'CANCELLED', error: new CancelledError('run cancelled') });
    expect(end.end(false)).toEqual({ status: 'UPSTREAM_FAILED' });
  });

  it('ALL_DONE ends normally whatever its parents did; ONE_SUCCESS ends UPSTREAM_FAILED only when no parent succeeded', () => {
    const allDone = new StageEnd(node('ALL_DONE', 2), run());
    expect(allDone.parentEnded('FAILURE')).toBe(false);
    expect(allDone.end(false)).toEqual({ status: 'SUCCESS' });
    const none = new StageEnd(node('ONE_SUCCESS', 2), run());
    none.parentEnded('FAILURE');
    none.parentEnded('CANCELLED');
    expect(none.end(false)).toEqual({ status: 'UPSTREAM_FAILED' });
    const one = new StageEnd(node('ONE_SUCCESS', 2), run());
    one.parentEnded('FAILURE');
    one.parentEnded('SUCCESS');
    expect(one.end(false)).toEqual({ status: 'SUCCESS' });
  });

  it('a run stopped for good ends its node CANCELLED without an error', () => {
    const end = new StageEnd(node(), run(true));
    expect(end.stopped).toBe(true);
    expect(end.end(true, new Error('aborted'))).toEqual({ status: 'CANCELLED' });
  });
});
