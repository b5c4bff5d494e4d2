import type { Plugin } from '../contract';
import { aggregatePlugin } from './aggregate/aggregate.plugin';
import { apiTriggerPlugin } from './api-trigger/api-trigger.plugin';
import { consoleTerminalPlugin } from './console-terminal/console-terminal.plugin';
import { cronTriggerPlugin } from './cron-trigger/cron-trigger.plugin';
import { delayPlugin } from './delay/delay.plugin';
import { httpRequestPlugin } from './http-request/http-request.plugin';
import { llmCallPlugin } from './llm-call/llm-call.plugin';
import { mcpToolCallPlugin } from './mcp-tool-call/mcp-tool-call.plugin';
import { processExecutorPlugin } from './process-executor/process-executor.plugin';
import { scriptPlugin } from './script/script.plugin';
import { manualTriggerPlugin } from './manual-trigger/manual-trigger.plugin';
import { resultTerminalPlugin } from './result-terminal/result-terminal.plugin';
import { routerPlugin } from './router/router.plugin';
import { splitPlugin } from './split/split.plugin';
import { subWorkflowPlugin } from './sub-workflow/sub-workflow.plugin';
import { transformPlugin } from './transform/transform.plugin';
import { waitForSignalPlugin } from './wait-for-signal/wait-for-signal.plugin';

/** The node types that ship with the engine, in palette order. */
export function builtinPlugins(): Array<Plugin<never>> {
  return [
    apiTriggerPlugin,
    manualTriggerPlugin,
    cronTriggerPlugin,
    transformPlugin,
    routerPlugin,
    delayPlugin,
    splitPlugin,
    aggregatePlugin,
    subWorkflowPlugin,
    waitForSignalPlugin,
    httpRequestPlugin,
    llmCallPlugin,
    mcpToolCallPlugin,
    scriptPlugin,
    processExecutorPlugin,
    consoleTerminalPlugin,
    resultTerminalPlugin,
  ] as unknown as Array<Plugin<never>>;
}
