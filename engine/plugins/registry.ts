import { z } from 'zod';
import type { NodeTypeCatalog, NodeTypeInfo } from '../../shared/workflow/node-type';
import type { Plugin } from './contract';

/** Maps a node type to its plugin (EXT-01). A duplicate type fails at startup. */
export class PluginRegistry {
  private readonly plugins = new Map<string, Plugin<unknown>>();
  private infoCache: NodeTypeInfo[] | null = null;

  constructor(plugins: ReadonlyArray<Plugin<never>> = []) {
    for (const p of plugins) this.register(p);
  }

  register(plugin: Plugin<never>): void {
    if (this.plugins.has(plugin.type)) throw new Error(`plugin type "${plugin.type}" is registered twice`);
    this.plugins.set(plugin.type, plugin as unknown as Plugin<unknown>);
    this.infoCache = null;
  }

  get(type: string): Plugin<unknown> | undefined {
    return this.plugins.get(type);
  }

  has(type: string): boolean {
    return this.plugins.has(type);
  }

  /** What the studio shows in its palette and uses to validate live. */
  list(): NodeTypeInfo[] {
    this.infoCache ??= [...this.plugins.values()].map((p) => ({
      type: p.type,
      kind: p.kind,
      title: p.title,
      description: p.description,
      outputs: [...p.outputs],
      configSchema: z.toJSONSchema(p.configSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
      defaultConfig: p.defaultConfig,
      ...(p.outputsFromConfig ? { outputsFromConfig: p.outputsFromConfig } : {}),
      ...(p.outputsWhen ? { outputsWhen: { flag: p.outputsWhen.flag, ports: [...p.outputsWhen.ports] } } : {}),
    }));
    return this.infoCache;
  }

  catalog(): NodeTypeCatalog {
    return new Map(
      [...this.plugins.values()].map((p) => [
        p.type,
        {
          kind: p.kind,
          outputs: [...p.outputs],
          ...(p.outputsFromConfig ? { outputsFromConfig: p.outputsFromConfig } : {}),
          ...(p.outputsWhen ? { outputsWhen: { flag: p.outputsWhen.flag, ports: [...p.outputsWhen.ports] } } : {}),
        },
      ]),
    );
  }
}
