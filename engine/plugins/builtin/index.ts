import type { Plugin } from '../contract';
import { apiTriggerPlugin } from './api-trigger/api-trigger.plugin';
import { consoleTerminalPlugin } from './console-terminal/console-terminal.plugin';
import { transformPlugin } from './transform/transform.plugin';

/** The node types that ship with the engine. */
export function builtinPlugins(): Array<Plugin<never>> {
  return [apiTriggerPlugin, transformPlugin, consoleTerminalPlugin] as unknown as Array<Plugin<never>>;
}
