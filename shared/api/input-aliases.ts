import type { OperationName } from './contract';

/**
 * Field names the seed's documentation uses where ours differ, accepted as they are written there
 * (`docs/reference.md`, STU-05 strict bodies): alias → the contract's name. Giving both is refused.
 */
export const INPUT_ALIASES: { readonly [K in OperationName]?: Readonly<Record<string, string>> } = {
  'runs.start': { sessionId: 'session' },
};
