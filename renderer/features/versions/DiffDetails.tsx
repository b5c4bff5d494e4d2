import type { NodeChange, ValueChange } from '../../../shared/workflow/workflow-diff';
import { diffCounts, type DiffView } from './diff-view';

export const shortHash = (version: string): string => version.slice(0, 8);

/** The changes of a diff beside the canvas: every changed key old/new, and what was added or removed. */
export function DiffDetails({ view }: { view: DiffView }) {
  const { diff } = view;
  const counts = diffCounts(diff);
  return (
    <div className="diff-details" data-testid="diff-details">
      <p className="diff-summary" data-testid="diff-summary">
        <code>{shortHash(view.from)}</code> → <code>{shortHash(view.to)}</code>: {counts.changed} changed, {counts.added} added, {counts.removed} removed
        node(s); {counts.edgesAdded} edge(s) added, {counts.edgesRemoved} removed.
      </p>
      {diff.description && (
        <NodeChangesTable
          nodeId="(workflow)"
          changes={[{ key: 'description', path: ['description'], before: diff.description.before, after: diff.description.after }]}
        />
      )}
      {diff.nodes.changed.map((c: NodeChange) => (
        <NodeChangesTable key={c.nodeId} nodeId={c.nodeId} changes={c.changes} />
      ))}
      <IdList title="Added nodes" mark="added" ids={diff.nodes.added.map((n) => n.nodeId)} />
      <IdList title="Removed nodes" mark="removed" ids={diff.nodes.removed.map((n) => n.nodeId)} />
      <IdList title="Added edges" mark="added" ids={diff.edges.added.map((e) => `${e.source} → ${e.target}${e.sourcePort ? ` (${e.sourcePort})` : ''}`)} />
      <IdList
        title="Removed edges"
        mark="removed"
        ids={diff.edges.removed.map((e) => `${e.source} → ${e.target}${e.sourcePort ? ` (${e.sourcePort})` : ''}`)}
      />
    </div>
  );
}

/** One node's changed keys side by side: key | old | new. */
export function NodeChangesTable({ nodeId, changes }: { nodeId: string; changes: readonly ValueChange[] }) {
  return (
    <section className="diff-node" data-testid={`diff-node-${nodeId}`}>
      <h4>
        <code>{nodeId}</code> <span className="diff-tag diff-changed">changed</span>
      </h4>
      <table className="diff-table">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Old</th>
            <th scope="col">New</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((c) => (
            <tr key={c.key} data-testid={`diff-change-${nodeId}-${c.key}`}>
              <th scope="row">
                <code>{c.key}</code>
              </th>
              <td className="diff-old">{formatValue(c.before)}</td>
              <td className="diff-new">{formatValue(c.after)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function IdList({ title, mark, ids }: { title: string; mark: 'added' | 'removed'; ids: readonly string[] }) {
  if (ids.length === 0) return null;
  return (
    <section className="diff-list">
      <h4>
        {title} <span className={`diff-tag diff-${mark}`}>{mark}</span>
      </h4>
      <ul>
        {ids.map((id) => (
          <li key={id}>
            <code>{id}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}

function formatValue(value: unknown): string {
  if (value === undefined) return '—';
  return JSON.stringify(value);
}
