/**
 * A hook for bench/ui-live: when a page sets `window.__yuktaRenderProbe` before the studio loads, every
 * canvas node render (the node, or its run figures line alone) calls it with the node id; the bench counts
 * re-renders per node (and reads the live store, exposed as `__yuktaLive`). Read once at load; otherwise
 * undefined, and a render pays one check.
 */
export const renderProbe: ((nodeId: string) => void) | undefined = (globalThis as { __yuktaRenderProbe?: (nodeId: string) => void }).__yuktaRenderProbe;
