import { useState, type FormEvent } from 'react';
import { identifierProblem } from '../../../shared/workflow/identifier';
import { Dialog } from '../../components/Dialog';
import { useStudio } from '../../store/studio-store';

/** File → Save as… (STU-08): the open graph saved under another workflow id (the current one stays as it was saved). */
export function SaveAsDialog({ onSave }: { onSave: () => void }) {
  const [id, setId] = useState(useStudio.getState().workflowId);
  const [problem, setProblem] = useState<string | null>(null);
  const close = () => useStudio.getState().openDialog(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const wrong = identifierProblem(id.trim());
    if (wrong) return setProblem(`The workflow id ${wrong}.`);
    close();
    useStudio.getState().setWorkflowId(id.trim());
    onSave();
  };
  return (
    <Dialog title="Save as" onClose={close} testId="save-as-dialog">
      <form onSubmit={submit}>
        <label className="field">
          <span className="field-label">New workflow id</span>
          <input
            value={id}
            onChange={(e) => setId(e.target.value)}
            spellCheck={false}
            data-testid="save-as-input"
            data-autofocus
            aria-invalid={problem !== null}
          />
          {problem && (
            <span className="field-error" role="alert" data-testid="save-as-error">
              {problem}
            </span>
          )}
        </label>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="button primary" data-testid="save-as-submit">
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
}
