import { BellRing, Check, Inbox, X } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { Approval, SignalDecision } from '../../../shared/api/control.schema';
import { JsonTree } from '../../components/JsonTree';
import { approvalKey, selectedApproval, useInbox } from '../../store/inbox-store';
import { isTextField } from '../../commands/command-table';
import { pageNotifications } from './browser-notifications';
import { DecisionDataField } from './DecisionDataField';
import { parseDecisionData, type InboxActions } from './inbox-actions';

/**
 * The approval inbox (STU-05), a panel over the inspector: every open approval across runs and workflows,
 * oldest first, with the waiting message; approve or reject with optional JSON data. Keys: J/K move, A
 * approves, R rejects, Escape closes (not while typing in the data field).
 */
export function InboxPanel({ actions, onShowRun }: { actions: InboxActions; onShowRun: (approval: Approval) => void }) {
  const open = useInbox((s) => s.open);
  if (!open) return null;
  return <InboxBody actions={actions} onShowRun={onShowRun} />;
}

function InboxBody({ actions, onShowRun }: { actions: InboxActions; onShowRun: (approval: Approval) => void }) {
  const approvals = useInbox((s) => s.approvals);
  const selected = useInbox((s) => s.selected);
  const current = useInbox(selectedApproval);
  const error = useInbox((s) => s.error);
  const list = useRef<HTMLUListElement>(null);
  const decision = useDecision(actions, selected, current);
  useEffect(() => list.current?.focus(), []);

  const onKey = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Escape') actions.toggleInbox(false);
    else if (isTextField(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
    else if (e.key === 'j' || e.key === 'J') useInbox.getState().move(1);
    else if (e.key === 'k' || e.key === 'K') useInbox.getState().move(-1);
    else if (e.key === 'a' || e.key === 'A') void decision.decide('APPROVE');
    else if (e.key === 'r' || e.key === 'R') void decision.decide('REJECT');
    else return;
    e.preventDefault();
    e.nativeEvent.stopImmediatePropagation();
  };

  return (
    <aside className="inbox-panel" aria-label="Approval inbox" data-testid="inbox-panel" onKeyDown={onKey}>
      <div className="panel-header">
        <span>
          Approvals <span className="tab-count">{approvals.length}</span>
        </span>
        <NotificationOffer />
        <button type="button" className="icon-button" onClick={() => actions.toggleInbox(false)} aria-label="Close the inbox" data-testid="inbox-close">
          <X size={15} aria-hidden="true" />
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert" data-testid="inbox-error">
          {error}
        </p>
      )}
      <InboxList approvals={approvals} selected={selected} listRef={list} />
      {current && <InboxDetail key={approvalKey(current)} approval={current} decision={decision} onShowRun={onShowRun} />}
    </aside>
  );
}

/** The open approvals, oldest first (a listbox moved with J/K), or the hint that none are waiting. */
function InboxList({ approvals, selected, listRef }: { approvals: Approval[]; selected: string | null; listRef: RefObject<HTMLUListElement | null> }) {
  if (approvals.length === 0)
    return (
      <div className="empty-hint" data-testid="inbox-empty">
        <Inbox size={18} aria-hidden="true" />
        <p>
          No approvals are waiting. A run stops here when a message reaches a WAIT_FOR_SIGNAL node, in any workflow; you can then approve or reject it, with
          data.
        </p>
      </div>
    );
  return (
    <ul
      ref={listRef}
      className="inbox-list"
      role="listbox"
      aria-label="Open approvals, oldest first (J/K to move)"
      tabIndex={0}
      aria-activedescendant={selected ? `inbox-${selected}` : undefined}
      data-testid="inbox-list"
    >
      {approvals.map((a, i) => (
        <InboxRow key={approvalKey(a)} approval={a} index={i} selected={approvalKey(a) === selected} />
      ))}
    </ul>
  );
}

/** The decision on the selected approval: its data (typed per approval) and the data's error. */
interface Decision {
  data: string;
  setData(text: string): void;
  dataError: string | null;
  decide(decision: SignalDecision): Promise<void>;
}

function useDecision(actions: InboxActions, selected: string | null, current: Approval | undefined): Decision {
  // Data typed per approval, so moving with J/K does not carry one item's data to another.
  const [drafts, setDrafts] = useState<Readonly<Record<string, string>>>({});
  const data = (selected && drafts[selected]) || '';
  const setData = (text: string) => selected && setDrafts((d) => ({ ...d, [selected]: text }));
  const [dataError, setDataError] = useState<string | null>(null);
  const decide = async (decision: SignalDecision) => {
    if (!current) return;
    const parsed = parseDecisionData(data);
    if (!parsed.ok) return setDataError(parsed.error);
    setDataError(null);
    await actions.decide(current, decision, parsed.data);
  };
  return { data, setData, dataError, decide };
}

/** The selected approval's waiting message, the data to send, and Show run / Reject / Approve. */
function InboxDetail({ approval, decision, onShowRun }: { approval: Approval; decision: Decision; onShowRun: (approval: Approval) => void }) {
  const { data, setData, dataError, decide } = decision;
  return (
    <div className="inbox-detail" data-testid="inbox-detail">
      <div className="field-label">Waiting message</div>
      <JsonTree value={approval.payload} testId="inbox-payload" />
      <DecisionDataField data={data} setData={setData} dataError={dataError} testId="inbox-data" />
      <div className="dialog-actions">
        <button type="button" className="button small" onClick={() => onShowRun(approval)} data-testid="inbox-show-run">
          Show run
        </button>
        <button type="button" className="button small danger" onClick={() => void decide('REJECT')} data-testid="inbox-reject" title="Reject (R)">
          <X size={12} aria-hidden="true" /> Reject
        </button>
        <button type="button" className="button small primary" onClick={() => void decide('APPROVE')} data-testid="inbox-approve" title="Approve (A)">
          <Check size={12} aria-hidden="true" /> Approve
        </button>
      </div>
      <p className="field-hint">A decision answers the oldest message waiting at this node of the run.</p>
    </div>
  );
}

function InboxRow({ approval, index, selected }: { approval: Approval; index: number; selected: boolean }) {
  const key = approvalKey(approval);
  const where = approval.session === 'default' ? approval.workflowId : `${approval.session}/${approval.workflowId}`;
  return (
    <li
      id={`inbox-${key}`}
      role="option"
      aria-selected={selected}
      className={`inbox-row${selected ? ' is-selected' : ''}`}
      onClick={() => useInbox.getState().select(key)}
      data-testid={`inbox-item-${index}`}
      data-key={key}
    >
      <span className="inbox-where">{where}</span>
      <span className="inbox-node">
        {approval.nodeId} · “{approval.signal}”
      </span>
      <span className="muted" title={new Date(approval.since).toISOString()}>
        waiting since {new Date(approval.since).toLocaleTimeString()} · run {approval.executionId.slice(0, 8)}
      </span>
    </li>
  );
}

/** In a browser that has not been asked yet: a button to allow a notification per new approval. */
function NotificationOffer() {
  const api = pageNotifications();
  const [permission, setPermission] = useState(api?.permission ?? 'denied');
  if (!api || permission !== 'default') return null;
  return (
    <button
      type="button"
      className="button small"
      onClick={() => void api.requestPermission().then(setPermission)}
      data-testid="inbox-notify"
      title="Show a desktop notification for each new approval"
    >
      <BellRing size={12} aria-hidden="true" /> Notify me
    </button>
  );
}
