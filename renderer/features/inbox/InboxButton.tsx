import { Inbox } from 'lucide-react';
import { useInbox } from '../../store/inbox-store';
import type { InboxActions } from './inbox-actions';

/** The app bar's inbox button with the number of open approvals (Ctrl/Cmd+Shift+I). */
export function InboxButton({ actions }: { actions: InboxActions }) {
  const count = useInbox((s) => s.approvals.length);
  const open = useInbox((s) => s.open);
  const label = `Approval inbox, ${count} open (Ctrl+Shift+I)`;
  return (
    <button
      type="button"
      className={`button inbox-button${open ? ' is-active' : ''}`}
      onClick={() => actions.toggleInbox()}
      aria-label={label}
      aria-expanded={open}
      title={label}
      data-testid="inbox-button"
    >
      <Inbox size={15} aria-hidden="true" />
      {count > 0 && (
        <span className="inbox-count" data-testid="inbox-count">
          {count}
        </span>
      )}
    </button>
  );
}
