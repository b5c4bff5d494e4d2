import { Search } from 'lucide-react';
import { useMemo, useState, type DragEvent, type KeyboardEvent } from 'react';
import type { NodeTypeInfo } from '../../../shared/workflow/node-type';
import { useStudio } from '../../store/studio-store';
import { endPaletteDrag, startPaletteDrag } from './drag-data';
import { KIND_GROUPS, NodeTypeIcon } from './node-icons';

/** Left panel: node types grouped by kind, searchable; drag one onto the canvas (or press Enter). */
export function Palette({ onAdd }: { onAdd: (type: string) => void }) {
  const nodeTypes = useStudio((s) => s.nodeTypes);
  const catalogState = useStudio((s) => s.catalogState);
  const catalogError = useStudio((s) => s.catalogError);
  const [query, setQuery] = useState('');

  const groups = useMemo(() => {
    const q = query.trim().toLowerCase();
    const matches = (t: NodeTypeInfo) => !q || [t.type, t.title, t.description, t.kind].some((s) => s.toLowerCase().includes(q));
    return KIND_GROUPS.map((g) => ({ ...g, items: nodeTypes.filter((t) => t.kind === g.kind && matches(t)) })).filter((g) => g.items.length > 0);
  }, [nodeTypes, query]);

  return (
    <aside className="panel-body" data-testid="palette" aria-label="Node palette">
      <label className="palette-search">
        <Search size={14} aria-hidden="true" />
        <input
          type="search"
          placeholder="Search nodes"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="palette-search"
          aria-label="Search node types"
        />
      </label>
      {catalogState === 'loading' && <p className="empty-hint">Loading node types…</p>}
      {catalogState === 'error' && (
        <p className="empty-hint is-error" role="alert">
          Could not load node types: {catalogError}. Check that the studio server is running, then reload.
        </p>
      )}
      {catalogState === 'ready' && groups.length === 0 && <p className="empty-hint">No node type matches “{query}”.</p>}
      {groups.map((group) => (
        <section key={group.kind} className="palette-group" aria-label={group.title}>
          <h3>{group.title}</h3>
          <ul>
            {group.items.map((t) => (
              <PaletteItem key={t.type} info={t} onAdd={onAdd} />
            ))}
          </ul>
        </section>
      ))}
      {catalogState === 'ready' && <p className="palette-tip">Drag onto the canvas, or focus and press Enter.</p>}
    </aside>
  );
}

function PaletteItem({ info, onAdd }: { info: NodeTypeInfo; onAdd: (type: string) => void }) {
  const onDragStart = (e: DragEvent<HTMLLIElement>) => startPaletteDrag(e.dataTransfer, info.type);
  const onKeyDown = (e: KeyboardEvent<HTMLLIElement>) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onAdd(info.type);
    }
  };
  return (
    <li
      className={`palette-item kind-${info.kind}`}
      draggable
      onDragStart={onDragStart}
      onDragEnd={endPaletteDrag}
      onKeyDown={onKeyDown}
      tabIndex={0}
      role="button"
      aria-label={`${info.title}: ${info.description}`}
      data-testid={`palette-item-${info.type}`}
      title={`${info.type} — ${info.description}`}
    >
      <NodeTypeIcon type={info.type} kind={info.kind} size={16} className="palette-item-icon" />
      <span className="palette-item-text">
        <span className="palette-item-title">{info.title}</span>
        <span className="palette-item-description">{info.description}</span>
      </span>
    </li>
  );
}
