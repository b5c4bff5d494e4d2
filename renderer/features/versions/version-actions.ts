import type { StudioClient } from '../../../shared/api/client';
import { confirmAction } from '../../components/confirm';
import { describeError } from '../workflow/describe-error';
import { toDefinition } from '../../store/graph-model';
import { useStudio } from '../../store/studio-store';
import { buildDiffView } from './diff-view';

type StudioStore = typeof useStudio;

/** The `to` of a diff drawn against the canvas (not a stored version). */
export const DRAFT_VERSION = 'draft';

/** STU-02: the version list of the open workflow, a diff of two versions on the canvas, and restore. */
export interface VersionActions {
  refreshVersions(): Promise<void>;
  /** Draws the diff from the older to the newer of two versions on the canvas (read-only). */
  compareVersions(a: string, b: string): Promise<void>;
  /** Draws the diff from a stored version (a run's) to the canvas as it is now: the draft, saved or not (STU-03). */
  compareWithDraft(version: string): Promise<void>;
  exitDiff(): void;
  /** Saves an older version as the current one (a new entry at the top) and opens it. */
  restoreVersion(version: string): Promise<boolean>;
}

export function createVersionActions(api: StudioClient, reopen: (session: string, workflowId: string) => Promise<void>, studio: StudioStore = useStudio): VersionActions {
  const fail = (message: string) => studio.getState().showBanner({ kind: 'version-error', message });
  const clearBanner = () => {
    if (studio.getState().banner?.kind === 'version-error') studio.getState().showBanner(null);
  };

  const actions: VersionActions = {
    async refreshVersions() {
      const { session, storedWorkflowId } = studio.getState();
      if (storedWorkflowId === null) return;
      studio.getState().setVersionsState('loading');
      try {
        const versions = await api['workflows.versions']({ session, workflowId: storedWorkflowId });
        if (studio.getState().storedWorkflowId === storedWorkflowId) studio.getState().setVersions(versions);
      } catch (error) {
        studio.getState().setVersionsState('error', describeError(error));
      }
    },

    async compareVersions(a, b) {
      const { session, storedWorkflowId, versions } = studio.getState();
      if (storedWorkflowId === null || a === b) return;
      // The list is newest first: the entry further down is the older one.
      const [older, newer] = versions.findIndex((v) => v.version === a) > versions.findIndex((v) => v.version === b) ? [a, b] : [b, a];
      try {
        const [before, after] = await Promise.all([
          api['workflows.getVersion']({ session, workflowId: storedWorkflowId, version: older }),
          api['workflows.getVersion']({ session, workflowId: storedWorkflowId, version: newer }),
        ]);
        if (studio.getState().storedWorkflowId !== storedWorkflowId) return;
        studio.getState().showDiff(buildDiffView(before.definition, after.definition, older, newer));
        clearBanner();
      } catch (error) {
        fail(`Could not compare the versions: ${describeError(error)}`);
      }
    },

    async compareWithDraft(version) {
      const { session, storedWorkflowId } = studio.getState();
      if (storedWorkflowId === null) return;
      try {
        const before = await api['workflows.getVersion']({ session, workflowId: storedWorkflowId, version });
        const now = studio.getState();
        if (now.storedWorkflowId !== storedWorkflowId) return;
        now.showDiff(buildDiffView(before.definition, toDefinition(now), version, DRAFT_VERSION));
        clearBanner();
      } catch (error) {
        fail(`Could not compare with the draft: ${describeError(error)}`);
      }
    },

    exitDiff() {
      studio.getState().showDiff(null);
    },

    async restoreVersion(version) {
      const { session, storedWorkflowId } = studio.getState();
      if (storedWorkflowId === null) return false;
      const short = version.slice(0, 8);
      const lost = studio.getState().dirty ? ' Your unsaved changes on the canvas are lost.' : '';
      const ok = await confirmAction({ title: `Restore version ${short}?`, message: `Its graph becomes the current version (a new save) and replaces the canvas.${lost}`, confirmLabel: 'Restore', danger: lost !== '' });
      if (!ok) return false;
      try {
        await api['workflows.restore']({ session, workflowId: storedWorkflowId, version, note: `restored ${version.slice(0, 8)}` });
        clearBanner();
        studio.getState().showDiff(null);
        await reopen(session, storedWorkflowId);
        return true;
      } catch (error) {
        fail(`Restore refused: ${describeError(error)}`);
        return false;
      }
    },
  };
  return actions;
}
