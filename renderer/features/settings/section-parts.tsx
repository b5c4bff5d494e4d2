import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** The keys' and secrets' table: a header of column names, the last one the row's actions. */
export function ListingTable({ testId, columns, children }: { testId: string; columns: string[]; children: ReactNode }) {
  return (
    <table className="scheduler-table settings-table" data-testid={testId}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c}>{c}</th>
          ))}
          <th aria-label="Actions" />
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** A row's icon action; `blocked` is why it may not be used (then it is its tooltip). */
export function RowAction({
  icon: Icon,
  label,
  blocked,
  danger = false,
  onClick,
  testId,
}: {
  icon: LucideIcon;
  label: string;
  blocked: string | null;
  danger?: boolean;
  onClick: () => void;
  testId: string;
}) {
  return (
    <button
      type="button"
      className={danger ? 'icon-button danger' : 'icon-button'}
      disabled={blocked !== null}
      title={blocked ?? label}
      aria-label={label}
      onClick={onClick}
      data-testid={testId}
    >
      <Icon size={13} aria-hidden="true" />
    </button>
  );
}

/** A line under a section: a refusal of the host (an alert) or why a list is not shown (a hint). */
export function SectionNote({ kind, text, testId }: { kind: 'error' | 'refused'; text: string | null; testId: string }) {
  if (!text) return null;
  return kind === 'error' ? (
    <p className="field-error" role="alert" data-testid={testId}>
      {text}
    </p>
  ) : (
    <p className="field-hint setting-disabled" data-testid={testId}>
      {text}
    </p>
  );
}
