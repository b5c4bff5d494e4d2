import { Check, Clock, X } from 'lucide-react';
import { JsonTree } from './JsonTree';

/** What `signal.*` metadata says about an approval (CTL-05), parsed for people. */
export interface SignalOutcome {
  name: string;
  decision: string;
  actor: string | null;
  data: unknown;
}

/** The approval outcome in a message's metadata, or null; `signal.data` (JSON text) is parsed back to a value. */
export function signalOutcome(metadata: Readonly<Record<string, string>>): SignalOutcome | null {
  const decision = metadata['signal.decision'];
  if (decision === undefined) return null;
  const text = metadata['signal.data'];
  let data: unknown = undefined;
  if (text !== undefined) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  return { name: metadata['signal.name'] ?? '', decision, actor: metadata['signal.actor'] ?? null, data };
}

const DECISION_ICON = { APPROVED: Check, REJECTED: X, TIMEOUT: Clock } as const;

/**
 * A message's metadata: an approval's decision, actor and data first, readable (data as a tree, not escaped
 * JSON text), then every other key as a tree.
 */
export function MessageMetadata({ metadata, testId }: { metadata: Readonly<Record<string, string>>; testId?: string }) {
  const outcome = signalOutcome(metadata);
  const rest = Object.fromEntries(Object.entries(metadata).filter(([k]) => !outcome || !k.startsWith('signal.')));
  const Icon = outcome ? (DECISION_ICON[outcome.decision as keyof typeof DECISION_ICON] ?? Check) : null;
  return (
    <div className="message-metadata" data-testid={testId}>
      {outcome && Icon && (
        <div className={`signal-outcome decision-${outcome.decision.toLowerCase()}`} data-testid={testId ? `${testId}-signal` : undefined}>
          <span className="signal-outcome-head">
            <Icon size={12} aria-hidden="true" /> {outcome.decision.charAt(0) + outcome.decision.slice(1).toLowerCase()}
            {outcome.actor ? ` by ${outcome.actor}` : ''} · signal “{outcome.name}”
          </span>
          {outcome.data !== undefined && <JsonTree value={outcome.data} label="data sent with the decision" />}
        </div>
      )}
      {Object.keys(rest).length > 0 && <JsonTree value={rest} label="metadata" />}
    </div>
  );
}
