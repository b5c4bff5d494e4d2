import { BookOpen } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Dialog } from '../../components/Dialog';
import { useStudio } from '../../store/studio-store';
import { confirmDiscard } from '../workflow/unsaved-guard';
import type { Example } from './example-catalog';

/**
 * "Open an example": the shipped examples with what each shows; a pick opens it as an unsaved copy in the
 * current session (an id not taken there), ready to save and run. The catalog loads on first open.
 */
export function ExamplesDialog() {
  const [examples, setExamples] = useState<readonly Example[] | null>(null);
  const close = () => useStudio.getState().openDialog(null);
  useEffect(() => {
    void import('./example-catalog').then((m) => setExamples(m.EXAMPLES));
  }, []);
  const open = async (example: Example) => {
    close();
    if (!(await confirmDiscard(useStudio, 'Opening an example replaces the canvas.'))) return;
    const { copyIdFor } = await import('./example-catalog');
    const state = useStudio.getState();
    const taken = new Set(state.workflows.filter((w) => w.session === state.session).map((w) => w.workflowId));
    state.importWorkflow({ ...structuredClone(example.definition), workflowId: copyIdFor(example.id, taken) });
  };
  return (
    <Dialog title="Open an example" onClose={close} testId="examples-dialog" className="examples-dialog">
      <p className="dialog-message">Each opens as a copy in this session: save it to keep it, press Run to try it.</p>
      {examples === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <ul className="examples-list" aria-label="Examples">
          {examples.map((example, i) => (
            <li key={example.id}>
              <button
                type="button"
                className="example-item"
                onClick={() => void open(example)}
                data-testid={`example-${example.id}`}
                {...(i === 0 ? { 'data-autofocus': true } : {})}
              >
                <BookOpen size={15} aria-hidden="true" />
                <span className="example-text">
                  <span className="example-title">
                    {example.title} <span className="muted">· {example.nodeCount} nodes</span>
                  </span>
                  <span className="example-description">{example.description}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
