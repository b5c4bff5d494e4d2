import { ChevronDown, Play, Save, Settings, Workflow, X } from 'lucide-react';
import type { ChangeEvent } from 'react';
import { identifierProblem } from '../../../shared/workflow/identifier';
import { useStudio } from '../../store/studio-store';
import type { RunCommand } from '../../commands/use-commands';
import { HostBadge } from '../connect/HostBadge';
import { LeaderBadge } from '../ha/LeaderBadge';
import { readOnlyReason, useHa } from '../../store/ha-store';
import { DebugControls } from '../debugger/DebugControls';
import { InboxButton } from '../inbox/InboxButton';
import { SessionPicker } from '../sessions/SessionPicker';
import { ThemeMenu } from '../theme/ThemeMenu';
import { RunPayloadPopover } from './RunPayloadDialog';
import { AccountBadge } from '../sign-in/AccountBadge';
import { confirmDiscard } from './unsaved-guard';
import type { StudioActions } from './workflow-actions';

const NEW_WORKFLOW = '__new__';

/**
 * Top bar: session and workflow pickers, id with unsaved dot, Save (Ctrl/Cmd+S, ▾ with note), Run (F5, ▾ with
 * payload), the debug controls while a run is shown, and the approval inbox with its count.
 */
export function AppBar({ actions, runCommand: run }: { actions: StudioActions; runCommand: RunCommand }) {
  return (
    <header className="app-bar" data-testid="app-bar">
      <div className="brand">
        <Workflow size={18} aria-hidden="true" />
        <span>Yukta Studio</span>
      </div>
      <HostBadge />
      <LeaderBadge />
      <SessionPicker actions={actions} />
      <WorkflowPicker actions={actions} />
      <WorkflowIdField />
      <SaveStatus />
      <div className="app-bar-spacer" />
      <WriteControls actions={actions} run={run} />
      <InboxButton actions={actions} />
      <ThemeMenu />
      <button
        type="button"
        className="icon-button"
        onClick={() => run('file.settings')}
        aria-label="Settings (Ctrl/Cmd+,)"
        title="Settings (Ctrl/Cmd+,)"
        data-testid="settings-button"
      >
        <Settings size={15} aria-hidden="true" />
      </button>
      <AccountBadge />
    </header>
  );
}

/** The open workflow, or New workflow; picking another asks first when the canvas has unsaved changes. */
function WorkflowPicker({ actions }: { actions: StudioActions }) {
  const workflows = useStudio((s) => s.workflows);
  const session = useStudio((s) => s.session);
  const storedWorkflowId = useStudio((s) => s.storedWorkflowId);
  const pickerValue = storedWorkflowId ? `${session}/${storedWorkflowId}` : NEW_WORKFLOW;
  const onPick = async (e: ChangeEvent<HTMLSelectElement>) => {
    const value = e.target.value;
    if (!(await confirmDiscard())) return;
    if (value === NEW_WORKFLOW) return actions.newWorkflow();
    const picked = workflows.find((w) => `${w.session}/${w.workflowId}` === value);
    if (picked) void actions.openWorkflow(picked.session, picked.workflowId);
  };
  return (
    <label className="app-bar-field">
      <span className="visually-hidden">Open workflow</span>
      <select value={pickerValue} onChange={(e) => void onPick(e)} data-testid="workflow-picker" aria-label="Open workflow">
        <option value={NEW_WORKFLOW}>New workflow</option>
        {storedWorkflowId && !workflows.some((w) => w.session === session && w.workflowId === storedWorkflowId) && (
          <option value={`${session}/${storedWorkflowId}`}>{storedWorkflowId}</option>
        )}
        {workflows
          .filter((w) => w.session === session)
          .map((w) => (
            <option key={`${w.session}/${w.workflowId}`} value={`${w.session}/${w.workflowId}`}>
              {w.workflowId} ({w.nodeCount} nodes)
            </option>
          ))}
      </select>
    </label>
  );
}

/** The id the workflow is saved under, with the unsaved dot and the id's problem. */
function WorkflowIdField() {
  const workflowId = useStudio((s) => s.workflowId);
  const dirty = useStudio((s) => s.dirty);
  const setWorkflowId = useStudio((s) => s.setWorkflowId);
  const idProblem = workflowId === '' ? null : identifierProblem(workflowId);
  return (
    <div className="workflow-id">
      <input
        value={workflowId}
        onChange={(e) => setWorkflowId(e.target.value)}
        placeholder="workflow-id"
        spellCheck={false}
        aria-label="Workflow id"
        aria-invalid={idProblem !== null}
        data-testid="workflow-id-input"
      />
      {dirty && <span className="unsaved-dot" data-testid="unsaved-dot" title="Unsaved changes" aria-label="Unsaved changes" role="img" />}
      {idProblem && (
        <span className="field-error floating" role="alert" data-testid="workflow-id-error">
          Workflow id {idProblem}.
        </span>
      )}
    </div>
  );
}

function SaveStatus() {
  const saveState = useStudio((s) => s.saveState);
  const dirty = useStudio((s) => s.dirty);
  const storedWorkflowId = useStudio((s) => s.storedWorkflowId);
  return (
    <span className="save-status" data-testid="save-status" aria-live="polite">
      {saveState === 'saving' ? 'Saving…' : dirty ? 'Unsaved changes' : storedWorkflowId ? 'Saved' : 'Not saved yet'}
    </span>
  );
}

/** Save, Run and the debug controls: disabled on a standby (SCL-02), saying why. */
function WriteControls({ actions, run }: { actions: StudioActions; run: RunCommand }) {
  const readOnly = useHa((s) => readOnlyReason(s.status));
  return (
    <fieldset className="read-only-controls" disabled={readOnly !== null} title={readOnly ?? undefined} data-testid="write-controls">
      <SaveButtons run={run} readOnly={readOnly} />
      <RunButtons actions={actions} run={run} readOnly={readOnly} />
      <DebugControls actions={actions} />
    </fieldset>
  );
}

/** Save (Ctrl/Cmd+S), and its caret: save with a note. */
function SaveButtons({ run, readOnly }: { run: RunCommand; readOnly: string | null }) {
  const saveState = useStudio((s) => s.saveState);
  const openDialog = useStudio((s) => s.openDialog);
  return (
    <div className="split-button">
      <button
        type="button"
        className="button"
        onClick={() => run('file.save')}
        disabled={saveState === 'saving'}
        data-testid="save-button"
        title={readOnly ?? 'Save (Ctrl/Cmd+S)'}
      >
        <Save size={15} aria-hidden="true" /> Save
      </button>
      <button
        type="button"
        className="button caret"
        onClick={() => openDialog('save-note')}
        disabled={saveState === 'saving'}
        aria-label="Save with note…"
        title="Save with note…"
        data-testid="save-with-note-button"
      >
        <ChevronDown size={15} aria-hidden="true" />
      </button>
    </div>
  );
}

/** Run with an empty payload (F5), and its caret: the payload popover. */
function RunButtons({ actions, run, readOnly }: { actions: StudioActions; run: RunCommand; readOnly: string | null }) {
  const session = useStudio((s) => s.session);
  const workflowId = useStudio((s) => s.workflowId);
  const running = useStudio((s) => s.running);
  const payloadOpen = useStudio((s) => s.dialog === 'run-payload');
  const openDialog = useStudio((s) => s.openDialog);
  return (
    <div className="split-button">
      <button
        type="button"
        className="button primary"
        onClick={() => run('run.run')}
        disabled={running}
        data-testid="run-button"
        title={readOnly ?? 'Save if needed and run with an empty payload (F5)'}
      >
        <Play size={15} aria-hidden="true" /> {running ? 'Starting…' : 'Run'}
      </button>
      <RunPayloadPopover
        open={payloadOpen}
        onOpenChange={(open) => openDialog(open ? 'run-payload' : null)}
        workflowKey={`${session}/${workflowId}`}
        onRun={(payload, options) => {
          openDialog(null);
          void actions.run(payload, options);
        }}
        trigger={
          <button
            type="button"
            className="button primary caret"
            disabled={running}
            aria-label="Run with payload…"
            title="Run with payload…"
            data-testid="run-with-payload-button"
          >
            <ChevronDown size={15} aria-hidden="true" />
          </button>
        }
      />
    </div>
  );
}

/** The banner under the bar: a save refusal, a run that did not start, or a workflow that did not open. */
export function ActionBanner() {
  const banner = useStudio((s) => s.banner);
  const more = useStudio((s) => s.moreBanners.length);
  const showBanner = useStudio((s) => s.showBanner);
  if (!banner) return null;
  return (
    <div className={`banner banner-${banner.kind}`} role="alert">
      <span className="banner-text" data-testid={banner.kind} title={banner.message}>
        {banner.message}
      </span>
      {more > 0 && (
        <span className="banner-count" data-testid="banner-count" title="Dismiss this message to see the older ones">
          +{more} more
        </span>
      )}
      <button type="button" className="icon-button" onClick={() => showBanner(null)} aria-label="Dismiss" data-testid="banner-dismiss">
        <X size={14} aria-hidden="true" />
      </button>
    </div>
  );
}
