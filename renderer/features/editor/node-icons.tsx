import { Box, Shuffle, Terminal, Webhook, Zap, type LucideIcon, type LucideProps } from 'lucide-react';
import type { NodeKind } from '../../../shared/workflow/node-type';

const KIND_ICONS: { readonly [K in NodeKind]: LucideIcon } = { trigger: Zap, processor: Shuffle, terminal: Terminal };
const TYPE_ICONS: Readonly<Record<string, LucideIcon>> = { API_TRIGGER: Webhook, TRANSFORM: Shuffle, CONSOLE_TERMINAL: Terminal };

/** The icon of a node type: its own when it has one, else its kind's. */
export function NodeTypeIcon({ type, kind, ...props }: { type: string; kind: NodeKind | undefined } & LucideProps) {
  const Icon = TYPE_ICONS[type] ?? (kind ? KIND_ICONS[kind] : Box);
  return <Icon aria-hidden="true" {...props} />;
}

export const KIND_GROUPS: ReadonlyArray<{ kind: NodeKind; title: string }> = [
  { kind: 'trigger', title: 'Triggers' },
  { kind: 'processor', title: 'Processors' },
  { kind: 'terminal', title: 'Terminals' },
];
