import type { Clock, Engine } from '../../engine/index';
import type { RunWaitResult } from '../../shared/api/runs.schema';
import { isTerminal } from '../../shared/status/status';
import type { ExecutionId } from '../../shared/workflow/ids';

/** Resolves true when `done` settles first, false when `ms` pass first on `clock` (the timer is cleared either way). */
function settlesWithin(done: Promise<unknown>, ms: number, clock: Clock): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = clock.setTimer(() => resolve(false), ms);
    const settle = (): void => {
      clock.clearTimer(timer);
      resolve(true);
    };
    done.then(settle, settle);
  });
}

/**
 * `runs.wait`: the run once it has ended, or as it stands after `timeoutSeconds` on the engine's clock (so tests
 * wait in virtual time). A queued start is waited for through its run. An unknown run is NOT_FOUND at once.
 */
export async function waitForRunEnd(engine: Engine, executionId: ExecutionId, timeoutSeconds: number): Promise<RunWaitResult> {
  const before = await engine.findRun(executionId);
  if (isTerminal(before.status) || timeoutSeconds === 0) return { ...before, timedOut: !isTerminal(before.status) };
  await settlesWithin(engine.waitForRun(executionId), timeoutSeconds * 1000, engine.clock);
  const after = await engine.findRun(executionId);
  return { ...after, timedOut: !isTerminal(after.status) };
}
