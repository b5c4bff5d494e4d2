import {
  Bot,
  Box,
  CalendarClock,
  Code,
  Combine,
  Flag,
  GitFork,
  Globe,
  MousePointerClick,
  Plug,
  Replace,
  Shuffle,
  Split,
  SquareTerminal,
  Terminal,
  Timer,
  UserCheck,
  Webhook,
  Workflow,
  Zap,
  type LucideIcon,
  type LucideProps,
} from 'lucide-react';
import type { NodeKind } from '../../../shared/workflow/node-type';

const KIND_ICONS: { readonly [K in NodeKind]: LucideIcon } = { trigger: Zap, processor: Shuffle, terminal: Terminal };
/** One icon per built-in node type (one set: lucide); a plugin type not listed shows its kind's icon. */
const TYPE_ICONS: Readonly<Record<string, LucideIcon>> = {
  API_TRIGGER: Webhook,
  MANUAL_TRIGGER: MousePointerClick,
  CRON_TRIGGER: CalendarClock,
  TRANSFORM: Replace,
  ROUTER: GitFork,
  DELAY: Timer,
  SPLIT: Split,
  AGGREGATE: Combine,
  SUB_WORKFLOW: Workflow,
  WAIT_FOR_SIGNAL: UserCheck,
  HTTP_REQUEST: Globe,
  LLM_CALL: Bot,
  MCP_TOOL_CALL: Plug,
  SCRIPT: Code,
  PROCESS_EXECUTOR: SquareTerminal,
  CONSOLE_TERMINAL: Terminal,
  RESULT_TERMINAL: Flag,
};

/** The icon of a node type: its own when it has one, else its kind's. */
export function nodeTypeIcon(type: string, kind: NodeKind | undefined): LucideIcon {
  return TYPE_ICONS[type] ?? (kind ? KIND_ICONS[kind] : Box);
}

export function NodeTypeIcon({ type, kind, ...props }: { type: string; kind: NodeKind | undefined } & LucideProps) {
  const Icon = TYPE_ICONS[type] ?? (kind ? KIND_ICONS[kind] : Box);
  return <Icon aria-hidden="true" {...props} />;
}

export const KIND_GROUPS: ReadonlyArray<{ kind: NodeKind; title: string }> = [
  { kind: 'trigger', title: 'Triggers' },
  { kind: 'processor', title: 'Processors' },
  { kind: 'terminal', title: 'Terminals' },
];
