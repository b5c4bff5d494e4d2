/** Items of an array or keys of an object drawn before "… n more". */
const MAX_ITEMS = 100;
/** Levels open at first; deeper ones start folded. */
const OPEN_DEPTH = 2;

/**
 * A JSON value as a tree (held and recorded messages, approvals): objects and arrays fold (native
 * `<details>`, so keyboard and screen readers work), leaves are coloured by type and also shown as typed
 * JSON text (never colour alone).
 */
export function JsonTree({ value, testId, label = 'payload' }: { value: unknown; testId?: string; label?: string }) {
  return (
    <div className="json-tree" data-testid={testId} role="tree" aria-label={label}>
      <JsonNode name={null} value={value} depth={0} />
    </div>
  );
}

function JsonNode({ name, value, depth }: { name: string | null; value: unknown; depth: number }) {
  const key = name === null ? null : <span className="json-key">{name}: </span>;
  if (value === null || typeof value !== 'object') {
    return (
      <div className="json-leaf" role="treeitem">
        {key}
        <span className={`json-${value === null ? 'null' : typeof value}`}>{leafText(value)}</span>
      </div>
    );
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    return (
      <div className="json-leaf" role="treeitem">
        {key}
        <span className="json-punct">{open + close}</span>
      </div>
    );
  }
  return (
    <details className="json-branch" open={depth < OPEN_DEPTH} role="treeitem">
      <summary>
        {key}
        <span className="json-punct">{open}</span>
        <span className="json-size">{Array.isArray(value) ? ` ${entries.length} items ` : ` ${entries.length} keys `}</span>
        <span className="json-punct">{close}</span>
      </summary>
      <div className="json-children" role="group">
        {entries.slice(0, MAX_ITEMS).map(([k, v]) => (
          <JsonNode key={k} name={k} value={v} depth={depth + 1} />
        ))}
        {entries.length > MAX_ITEMS && <div className="json-more">… {entries.length - MAX_ITEMS} more</div>}
      </div>
    </details>
  );
}

function leafText(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  return JSON.stringify(value) ?? String(value);
}
