/**
 * Keeps runs from starving the event loop. A chain of stages hands messages on with promise callbacks
 * (microtasks), which never let timers, I/O or IPC in; so the places that inject new messages (triggers
 * and expanding outputs) give the event loop a turn once their slice of time is used up. Bounded channels
 * cap the work queued behind each injection, so these are the only places that need it.
 */
const SLICE_MS = 4;
let sliceStart = performance.now();
let calls = 0;

/** True after SLICE_MS (4 ms) of continuous work; cheap enough to ask per message. */
export function shouldYield(): boolean {
  if ((++calls & 63) !== 0) return false;
  return performance.now() - sliceStart > SLICE_MS;
}

/** Resolves on the next turn of the event loop, after pending I/O and timers. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) =>
    setImmediate(() => {
      sliceStart = performance.now();
      resolve();
    }),
  );
}
