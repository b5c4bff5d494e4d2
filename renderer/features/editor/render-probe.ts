/**
 * A hook for bench/ui-live: when a page sets `window.__yuktaRenderProbe` before the studio loads, every
 * canvas node render calls it with the node id (the bench counts re-renders per node). Read once at load;
 * otherwise undefined, and a render pays one check.
 */
export const renderProbe: ((nodeId: string) => void) | undefined = (globalThis as { __yuktaRenderProbe?: (nodeId: string) => void }).__yuktaRenderProbe;
