import { Box, Shuffle, Terminal, Webhook, Zap, type LucideIcon } from 'lucide-react';
import type { NodeKind } from '../../../shared/workflow/node-type';

const KIND_ICONS: { [K in NodeKind]: LucideIcon } = { trigger: Zap, processor: Shuffle, terminal: Terminal };
const TYPE_ICONS: Record<string, LucideIcon> = { API_TRIGGER: Webhook, TRANSFORM: Shuffle, CONSOLE_TERMINAL: Terminal };

/** The icon of a node type: its own when it has one, else its kind's. */
export function nodeTypeIcon(type: string, kind: NodeKind | undefined): LucideIcon {
  return TYPE_ICONS[type] ?? (kind ? KIND_ICONS[kind] : Box);
}

export const KIND_GROUPS: ReadonlyArray<{ kind: NodeKind; title: string }> = [
  { kind: 'trigger', title: 'Triggers' },
  { kind: 'processor', title: 'Processors' },
  { kind: 'terminal', title: 'Terminals' },
];
