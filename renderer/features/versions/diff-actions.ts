import type { StudioClient } from '../../../shared/api/client';
import { toDefinition } from '../../store/graph-model';
import type { useStudio } from '../../store/studio-store';
import { describeError } from '../workflow/describe-error';
import { buildDiffView } from './diff-view';
import type { VersionBanner } from './version-banner';

/** The `to` of a diff drawn against the canvas (not a stored version). */
export const DRAFT_VERSION = 'draft';

/** STU-02/03: a diff of two versions, or of a version and the canvas, drawn on the canvas (read-only). */
export interface DiffActions {
  /** Draws the diff from the older to the newer of two versions on the canvas (read-only). */
  compareVersions(a: string, b: string): Promise<void>;
  /** Draws the diff from a stored version (a run's) to the canvas as it is now: the draft, saved or not (STU-03). */
  compareWithDraft(version: string): Promise<void>;
  exitDiff(): void;
}

export function createDiffActions(api: StudioClient, studio: typeof useStudio, banner: VersionBanner): DiffActions {
  return {
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
        banner.clear();
      } catch (error) {
        banner.fail(`Could not compare the versions: ${describeError(error)}`);
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
        banner.clear();
      } catch (error) {
        banner.fail(`Could not compare with the draft: ${describeError(error)}`);
      }
    },

    exitDiff() {
      studio.getState().showDiff(null);
    },
  };
}
