import type { NodeControl } from '../../plugins/contract';
import type { ControlledNode, RunControl } from '../../runtime/run-hooks';
import type { PluginControlBus } from '../plugin-bus/plugin-control-bus';
import type { SignalHub } from './signal-hub';

/**
 * Serves each node's `ctx.control`: signal waits through the shared hub, timed on the node's own clock
 * (frozen while the node is paused), and plugin handlers on the bus until the node ends.
 */
export class EngineRunControl implements RunControl {
  constructor(
    private readonly hub: SignalHub,
    private readonly bus: PluginControlBus,
  ) {}

  forNode(node: ControlledNode): NodeControl {
    return {
      waitForSignal: async (request) => {
        const local = new AbortController();
        const abort = AbortSignal.any([node.signal, local.signal]);
        try {
          const answer = this.hub.wait(node, request, abort);
          const timeout = node.timers.sleep(request.timeoutMs, abort).then(() => null);
          return await Promise.race([answer, timeout]);
        } finally {
          local.abort();
        }
      },
      onControl: (handler) => {
        const off = this.bus.register(node, handler);
        if (node.signal.aborted) off();
        else node.signal.addEventListener('abort', off, { once: true });
      },
    };
  }
}
