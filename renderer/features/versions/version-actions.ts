import type { StudioClient } from '../../../shared/api/client';
import { confirmAction } from '../../components/confirm';
import { describeError } from '../workflow/describe-error';
import { useStudio } from '../../store/studio-store';
import { createDiffActions, type DiffActions } from './diff-actions';
import { versionBanner, type VersionBanner } from './version-banner';

export { DRAFT_VERSION } from './diff-actions';

type StudioStore = typeof useStudio;

/** STU-02: the version list of the open workflow, a diff of two versions on the canvas, and restore. */
export interface VersionActions extends DiffActions {
  refreshVersions(): Promise<void>;
  /** Saves an older version as the current one (a new entry at the top) and opens it. */
  restoreVersion(version: string): Promise<boolean>;
}

export function createVersionActions(
  api: StudioClient,
  reopen: (session: string, workflowId: string) => Promise<void>,
  studio: StudioStore = useStudio,
): VersionActions {
  const banner = versionBanner(studio);
  return {
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
    ...createDiffActions(api, studio, banner),
    restoreVersion: (version) => restoreVersion(api, studio, banner, reopen, version),
  };
}

/** Asks first (the canvas is replaced; unsaved changes are lost), then restores and reopens the workflow. */
async function restoreVersion(
  api: StudioClient,
  studio: StudioStore,
  banner: VersionBanner,
  reopen: (session: string, workflowId: string) => Promise<void>,
  version: string,
): Promise<boolean> {
  const { session, storedWorkflowId } = studio.getState();
  if (storedWorkflowId === null) return false;
  const short = version.slice(0, 8);
  const lost = studio.getState().dirty ? ' Your unsaved changes on the canvas are lost.' : '';
  const ok = await confirmAction({
    title: `Restore version ${short}?`,
    message: `Its graph becomes the current version (a new save) and replaces the canvas.${lost}`,
    confirmLabel: 'Restore',
    danger: lost !== '',
  });
  if (!ok) return false;
  try {
    await api['workflows.restore']({ session, workflowId: storedWorkflowId, version, note: `restored ${version.slice(0, 8)}` });
    banner.clear();
    studio.getState().showDiff(null);
    await reopen(session, storedWorkflowId);
    return true;
  } catch (error) {
    banner.fail(`Restore refused: ${describeError(error)}`);
    return false;
  }
}
