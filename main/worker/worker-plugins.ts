import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtinPlugins, PluginRegistry, type Plugin } from '../../engine/index';
import { CliError, EXIT_USAGE } from '../cli/cli-io';

/** A module's export that looks like plugins: objects with a type, a kind and a process function. */
function asPlugins(value: unknown, module: string): Array<Plugin<never>> {
  if (!Array.isArray(value)) throw new CliError(`--plugins ${module}: export an array of plugins as "plugins" or as the default export`, EXIT_USAGE);
  return value.map((p: unknown, i) => {
    const ok =
      p !== null &&
      typeof p === 'object' &&
      typeof (p as { type?: unknown }).type === 'string' &&
      typeof (p as { process?: unknown }).process === 'function' &&
      ['trigger', 'processor', 'terminal'].includes(String((p as { kind?: unknown }).kind));
    if (!ok) throw new CliError(`--plugins ${module}: item ${i} is not a plugin (it needs type, kind and process)`, EXIT_USAGE);
    return p as Plugin<never>;
  });
}

/**
 * The worker's plugin registry: the engine's built-ins and the plugins of each `--plugins` module (its
 * `plugins` export or its default export). A type given twice fails, as in the engine.
 */
export async function workerPlugins(modules: readonly string[]): Promise<PluginRegistry> {
  const plugins: Array<Plugin<never>> = builtinPlugins();
  for (const module of modules) {
    const loaded = (await import(pathToFileURL(resolve(module)).href)) as { plugins?: unknown; default?: unknown };
    plugins.push(...asPlugins(loaded.plugins ?? loaded.default, module));
  }
  try {
    return new PluginRegistry(plugins);
  } catch (error) {
    throw new CliError(`--plugins: ${(error as Error).message}`, EXIT_USAGE);
  }
}

/** Types a worker runs when `--allow` names none: every processor that does not need the engine. */
export function placeableTypes(registry: PluginRegistry): string[] {
  return registry.list().flatMap((info) => {
    const p = registry.get(info.type)!;
    return p.kind === 'processor' && !p.finish && !p.waitsForSignals && !p.needsEngine ? [p.type] : [];
  });
}
