import { useState, type FormEvent } from 'react';
import { Dialog } from '../../components/Dialog';
import { useStudio } from '../../store/studio-store';

const MAX_NOTE = 1000;

/** "Save with note…": the note is kept with the version in the Versions tab. */
export function SaveNoteDialog({ onSave }: { onSave: (note: string) => void }) {
  const [note, setNote] = useState('');
  const close = () => useStudio.getState().openDialog(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    close();
    onSave(note.trim());
  };
  return (
    <Dialog title="Save with note" onClose={close} testId="save-note-dialog">
      <form onSubmit={submit}>
        <label className="field">
          <span className="field-label">Note for this version</span>
          <input
            value={note}
            maxLength={MAX_NOTE}
            onChange={(e) => setNote(e.target.value)}
            placeholder="What changed, e.g. “retry the HTTP call 3 times”"
            data-testid="save-note-input"
            data-autofocus
          />
          <span className="field-hint">Shown beside the version in the Versions tab. Saving an unchanged graph adds no version.</span>
        </label>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="button primary" data-testid="save-note-submit">
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
}
