import { GitCompare } from 'lucide-react';
import { useStudio } from '../../store/studio-store';
import { NodeChangesTable } from './DiffDetails';

/** The inspector while a diff is shown: the selected node's mark and its changed keys (read-only). */
export function DiffInspector() {
  const view = useStudio((s) => s.diffView);
  const selected = view?.nodes.find((n) => n.selected);
  if (!view || !selected) {
    return (
      <div className="empty-hint" data-testid="diff-inspector-empty">
        <GitCompare size={18} aria-hidden="true" />
        <p>Comparing versions: the canvas is read-only. Select a node to see what changed in it.</p>
      </div>
    );
  }
  const changes = view.diff.nodes.changed.find((c) => c.nodeId === selected.id)?.changes;
  return (
    <div className="inspector-body" data-testid="diff-inspector">
      <p className="form-note">
        <code>{selected.id}</code> is <strong>{selected.data.diff ?? 'unchanged'}</strong> between the two versions.
      </p>
      {changes && <NodeChangesTable nodeId={selected.id} changes={changes} />}
    </div>
  );
}
