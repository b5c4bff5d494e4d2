import { z } from 'zod';
import { DEFAULT_PORT } from '../../../../shared/workflow/engine-policy.schema';
import { definePlugin } from '../../contract';
import { renderDeep } from '../../expressions/template';

const TransformConfig = z.strictObject({
  /** Fields to write; string values are templates such as `Hello ${payload.name}` or `${payload.n:int}`. */
  set: z.record(z.string(), z.unknown()).default({}),
  /** `merge` writes the fields over the input payload; `replace` emits only them. */
  mode: z.enum(['merge', 'replace']).default('merge'),
});

/** Maps each message through templates (EXT-01 TRANSFORM). */
export const transformPlugin = definePlugin({
  type: 'TRANSFORM',
  kind: 'processor',
  title: 'Transform',
  description: 'Sets payload fields from templates like ${payload.name}.',
  configSchema: TransformConfig,
  defaultConfig: { set: {}, mode: 'merge' },
  outputs: [DEFAULT_PORT],
  process(message, config, ctx) {
    const set = config.set;
    // Nothing to set: the message passes through unchanged (no copy).
    if (config.mode === 'merge' && isEmpty(set)) return [{ payload: message.payload, metadata: message.metadata }];
    // Only plain values (no template, nothing nested): they are the fields as they stand, with no scope to build.
    const fields = isLiteral(set)
      ? set
      : (renderDeep(set, {
          payload: message.payload,
          metadata: message.metadata,
          context: { executionId: ctx.executionId, nodeId: ctx.nodeId, workflowId: ctx.workflowId, session: ctx.session },
          variables: ctx.services.variables,
        }) as Record<string, unknown>);
    const input = message.payload;
    const base = config.mode === 'merge' && input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
    return [{ payload: { ...base, ...fields }, metadata: { ...message.metadata } }];
  },
});

function isEmpty(set: Record<string, unknown>): boolean {
  for (const _key in set) return false;
  return true;
}

/** True when every field is a number, boolean, null or a string without `${`: rendering would return them unchanged. */
function isLiteral(set: Record<string, unknown>): boolean {
  for (const key in set) {
    const value = set[key];
    if (typeof value === 'string' ? value.includes('${') : value !== null && typeof value === 'object') return false;
  }
  return true;
}
