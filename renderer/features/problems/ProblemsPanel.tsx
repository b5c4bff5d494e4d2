import { CircleCheck, CircleX, TriangleAlert } from 'lucide-react';
import type { ValidationIssue } from '../../../shared/workflow/validation-issue';
import { useProblems } from '../../store/problems-store';
import { useStudio } from '../../store/studio-store';

/**
 * Problems tab: every validation issue in plain words with its level (an error blocks a save, a warning
 * never does), its node(s) and its rule code; a click selects the node.
 */
export function ProblemsPanel() {
  const issues = useProblems((s) => s.issues);
  const empty = useStudio((s) => s.nodes.length === 0);
  const edit = useStudio((s) => s.edit);

  if (issues.length === 0) {
    return (
      <div className="empty-hint" data-testid="problems-empty">
        <CircleCheck size={16} aria-hidden="true" />
        <p>
          {empty
            ? 'No problems — the canvas is empty. Drag a trigger from the palette to begin.'
            : 'No problems: every node is connected and its settings are valid.'}
        </p>
      </div>
    );
  }
  return (
    <ul className="problems-list" data-testid="problems-list">
      {issues.map((issue, i) => (
        <ProblemRow key={`${issue.code}-${i}`} issue={issue} onSelect={(nodeId) => edit({ kind: 'select', nodeId })} />
      ))}
    </ul>
  );
}

function ProblemRow({ issue, onSelect }: { issue: ValidationIssue; onSelect: (nodeId: string) => void }) {
  const nodes = issue.nodeIds ?? (issue.nodeId ? [issue.nodeId] : []);
  const Icon = issue.severity === 'error' ? CircleX : TriangleAlert;
  const first = nodes[0];
  return (
    <li className={`problem-item severity-${issue.severity}`} data-testid="problem-item" data-code={issue.code}>
      <button type="button" onClick={() => first && onSelect(first)} disabled={!first} title={first ? `Select ${first}` : undefined}>
        <Icon size={14} aria-hidden="true" className="problem-icon" />
        <span className={`problem-level level-${issue.severity}`}>{issue.severity === 'error' ? 'Error' : 'Warning'}</span>
        <span className="problem-nodes">{nodes.length ? nodes.join(', ') : (issue.path ?? 'workflow')}</span>
        <span className="problem-message">{plainMessage(issue.message)}</span>
        <code className="problem-code" title="rule">
          {issue.code}
        </code>
      </button>
    </li>
  );
}

/** A rule message as a sentence: capital first letter, full stop. */
export function plainMessage(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
