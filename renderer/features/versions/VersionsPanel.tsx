import { GitCompare, History, RotateCcw, Trash2, X } from 'lucide-react';
import type { WorkflowVersion } from '../../../shared/api/workflows.schema';
import { useStudio } from '../../store/studio-store';
import { DiffDetails, shortHash } from './DiffDetails';
import type { DeleteActions } from '../workflow/delete-workflow';
import type { VersionActions } from './version-actions';

/** Versions tab (STU-02): the history of the open workflow, compare two on the canvas, restore one. */
export function VersionsPanel({ actions }: { actions: VersionActions & DeleteActions }) {
  const versions = useStudio((s) => s.versions);
  const state = useStudio((s) => s.versionsState);
  const error = useStudio((s) => s.versionsError);
  const picked = useStudio((s) => s.comparePick);
  const diffView = useStudio((s) => s.diffView);
  const saved = useStudio((s) => s.storedWorkflowId !== null);

  if (!saved) {
    return (
      <div className="empty-hint" data-testid="versions-empty">
        <History size={16} aria-hidden="true" />
        <p>Save the workflow: every save that changes the graph adds a version here (the newest 20 are kept).</p>
      </div>
    );
  }
  return (
    <div className="versions-panel" data-testid="versions-panel">
      <div className="versions-column">
        <VersionsToolbar actions={actions} picked={picked} />
        {state === 'error' && (
          <p className="empty-hint is-error" role="alert">
            Could not load the versions: {error}
          </p>
        )}
        <ul className="versions-list" data-testid="versions-list">
          {versions.map((v) => (
            <VersionRow key={v.version} version={v} picked={picked.includes(v.version)} actions={actions} />
          ))}
        </ul>
      </div>
      {diffView && <DiffDetails view={diffView} />}
    </div>
  );
}

/** Compare the two ticked versions, leave the diff, delete the workflow. */
function VersionsToolbar({ actions, picked }: { actions: VersionActions & DeleteActions; picked: string[] }) {
  const diffView = useStudio((s) => s.diffView);
  return (
    <div className="versions-toolbar">
      <button
        type="button"
        className="button small"
        disabled={picked.length !== 2}
        onClick={() => void actions.compareVersions(picked[0]!, picked[1]!)}
        data-testid="versions-compare"
        title="Draw the difference of the two ticked versions on the canvas"
      >
        <GitCompare size={13} aria-hidden="true" /> Compare
      </button>
      {diffView && (
        <button type="button" className="button small" onClick={actions.exitDiff} data-testid="versions-exit-diff">
          <X size={13} aria-hidden="true" /> Exit diff
        </button>
      )}
      <span className="field-hint">{picked.length === 2 ? 'Ready to compare.' : 'Tick two versions to compare them.'}</span>
      <span className="app-bar-spacer" />
      <button
        type="button"
        className="button small danger"
        onClick={() => void actions.deleteWorkflow()}
        data-testid="workflow-delete"
        title="Delete this workflow and its versions (asks first)"
      >
        <Trash2 size={13} aria-hidden="true" /> Delete workflow…
      </button>
    </div>
  );
}

function VersionRow({ version: v, picked, actions }: { version: WorkflowVersion; picked: boolean; actions: VersionActions }) {
  const togglePick = useStudio((s) => s.togglePick);
  const id = `version-pick-${v.version}`;
  return (
    <li className={`version-row${v.current ? ' is-current' : ''}`} data-testid={`version-row-${v.version}`} data-version={v.version} data-current={v.current}>
      <input
        type="checkbox"
        id={id}
        checked={picked}
        onChange={() => togglePick(v.version)}
        data-testid={id}
        aria-label={`Compare version ${shortHash(v.version)}`}
      />
      <label htmlFor={id} className="version-main">
        <code className="version-hash" title={v.version}>
          {shortHash(v.version)}
        </code>
        {v.current && <span className="version-current">current</span>}
        <span className="version-time" title={new Date(v.savedAt).toISOString()}>
          {new Date(v.savedAt).toLocaleString()}
        </span>
        <span className="version-note" data-testid={`version-note-${v.version}`}>
          {v.note ?? ''}
        </span>
      </label>
      <button
        type="button"
        className="button small"
        disabled={v.current}
        onClick={() => void actions.restoreVersion(v.version)}
        data-testid={`version-restore-${v.version}`}
        title={v.current ? 'This is the current version' : 'Save this version as the current one (adds a version)'}
      >
        <RotateCcw size={13} aria-hidden="true" /> Restore
      </button>
    </li>
  );
}

/** Over the canvas while a diff is shown: which versions, read-only, and the way back. */
export function DiffBanner({ onExit }: { onExit: () => void }) {
  const view = useStudio((s) => s.diffView);
  if (!view) return null;
  return (
    <div className="diff-banner" role="status" data-testid="diff-banner">
      <GitCompare size={14} aria-hidden="true" />
      <span>
        Comparing <code>{shortHash(view.from)}</code> → <code>{shortHash(view.to)}</code> · read-only · <span className="diff-tag diff-added">added</span>{' '}
        <span className="diff-tag diff-changed">changed</span> <span className="diff-tag diff-removed">removed</span>
      </span>
      <button type="button" className="button small" onClick={onExit} data-testid="diff-exit">
        Back to editing
      </button>
    </div>
  );
}
