const RESOLVED = Promise.resolve();

/**
 * Runs `callback` in a microtask, as `queueMicrotask` does, without Node's wrapper around it (an async
 * resource and a bound function per call: a channel schedules one per message hop).
 */
export function inMicrotask(callback: () => void): void {
  void RESOLVED.then(callback);
}
