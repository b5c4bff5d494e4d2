import { useState, type KeyboardEvent } from 'react';
import { identifierProblem } from '../../../shared/workflow/identifier';
import { useStudio } from '../../store/studio-store';

/** The node id field: a draft applied on Enter or blur (renaming the node and its edges), Escape reverts. */
export function NodeIdField({ nodeId }: { nodeId: string }) {
  const edit = useStudio((s) => s.edit);
  const [idDraft, setIdDraft] = useState(nodeId);
  const [idError, setIdError] = useState<string | null>(null);
  const commitId = () => {
    const next = idDraft;
    if (next === nodeId) return setIdError(null);
    const problem = identifierProblem(next);
    if (problem) return setIdError(`Node id ${problem}.`);
    if (useStudio.getState().nodes.some((n) => n.id === next)) return setIdError(`Another node is already called "${next}".`);
    setIdError(null);
    edit({ kind: 'rename-node', from: nodeId, to: next });
  };
  const onIdKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') commitId();
    if (e.key === 'Escape') {
      setIdDraft(nodeId);
      setIdError(null);
    }
  };
  return (
    <label className="field">
      <span className="field-label">Node id</span>
      <input
        value={idDraft}
        onChange={(e) => setIdDraft(e.target.value)}
        onBlur={commitId}
        onKeyDown={onIdKey}
        spellCheck={false}
        aria-invalid={idError !== null}
        data-testid="inspector-node-id"
      />
      {idError && (
        <span className="field-error" role="alert" data-testid="inspector-node-id-error">
          {idError}
        </span>
      )}
      <span className="field-hint">Renaming updates the connected edges. Press Enter to apply.</span>
    </label>
  );
}
