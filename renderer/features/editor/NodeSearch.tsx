import { useMemo, useState, type KeyboardEvent } from 'react';
import { Dialog } from '../../components/Dialog';
import type { StudioNode } from '../../store/graph-model';
import { useStudio } from '../../store/studio-store';
import { NodeTypeIcon } from './node-icons';
import { useShowNode } from './use-show-node';

const MAX_RESULTS = 50;

/** Nodes whose id, label or type contain the query (ids first), at most 50. */
export function searchNodes(nodes: readonly StudioNode[], query: string): StudioNode[] {
  const q = query.trim().toLowerCase();
  if (!q) return nodes.slice(0, MAX_RESULTS);
  const score = (n: StudioNode) => (n.id.toLowerCase().startsWith(q) ? 0 : n.id.toLowerCase().includes(q) ? 1 : 2);
  return nodes
    .filter((n) => [n.id, n.data.label ?? '', n.data.type].some((s) => s.toLowerCase().includes(q)))
    .sort((a, b) => score(a) - score(b))
    .slice(0, MAX_RESULTS);
}

/** Ctrl/Cmd+K: type part of a node's id, label or type; Enter centres the canvas on it and selects it. */
export function NodeSearch() {
  const nodes = useStudio((s) => s.diffView?.nodes ?? s.nodes);
  const close = () => useStudio.getState().openDialog(null);
  const showNode = useShowNode();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const results = useMemo(() => searchNodes(nodes, query), [nodes, query]);

  const jump = (node: StudioNode) => {
    showNode(node.id);
    close();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (results.length ? (i + step + results.length) % results.length : 0));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const node = results[Math.min(active, results.length - 1)];
      if (node) jump(node);
    }
  };

  const activeNode = results[Math.min(active, results.length - 1)];
  return (
    <Dialog title="Jump to node" onClose={close} testId="node-search" placement="top" className="command-palette">
      <input
        className="command-input"
        value={query}
        onChange={(e) => (setQuery(e.target.value), setActive(0))}
        onKeyDown={onKeyDown}
        placeholder="Node id, label or type…"
        role="combobox"
        aria-expanded="true"
        aria-controls="node-search-results"
        aria-activedescendant={activeNode ? `node-search-${activeNode.id}` : undefined}
        aria-label="Find a node"
        data-testid="node-search-input"
        data-autofocus
        spellCheck={false}
      />
      <NodeSearchResults query={query} results={results} activeNode={activeNode} onPick={jump} onHover={setActive} />
    </Dialog>
  );
}

type NodeSearchResultsProps = {
  query: string;
  results: readonly StudioNode[];
  activeNode: StudioNode | undefined;
  onPick(node: StudioNode): void;
  onHover(index: number): void;
};

/** The matching nodes, the active one marked for the combobox. */
function NodeSearchResults({ query, results, activeNode, onPick, onHover }: NodeSearchResultsProps) {
  return (
    <ul className="command-results" id="node-search-results" role="listbox" aria-label="Matching nodes">
      {results.length === 0 && <li className="empty-hint">No node matches “{query}”.</li>}
      {results.map((n, i) => (
        <li
          key={n.id}
          id={`node-search-${n.id}`}
          role="option"
          aria-selected={n === activeNode}
          className={`command-item${n === activeNode ? ' is-active' : ''}`}
          onMouseDown={(e) => (e.preventDefault(), onPick(n))}
          onMouseEnter={() => onHover(i)}
          data-testid={`node-search-item-${n.id}`}
        >
          <NodeTypeIcon type={n.data.type} kind={undefined} size={14} />
          <code>{n.id}</code>
          {n.data.label && <span className="command-label">{n.data.label}</span>}
          <span className="command-type">{n.data.type}</span>
        </li>
      ))}
    </ul>
  );
}
