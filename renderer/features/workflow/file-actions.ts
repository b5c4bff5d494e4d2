import type { StudioClient } from '../../../shared/api/client';
import { toDefinition } from '../../store/graph-model';
import { useStudio } from '../../store/studio-store';
import { confirmDiscard } from './unsaved-guard';
import { checkWorkflowFile, describeRefusal, exportFileName, MAX_IMPORT_BYTES, refusalOf, workflowFileText, type ImportRefusal } from './workflow-file';

type StudioStore = typeof useStudio;

/** Import and export of a workflow file (STU-01). */
export interface FileActions {
  /** Downloads the open graph as `<workflowId>.json` (a save dialog in the desktop app). */
  exportWorkflow(): void;
  /**
   * Imports a file as a new unsaved workflow of the current session. A refused file (too big, not JSON,
   * not a workflow, invalid) changes nothing and the banner names the code, node and path.
   */
  importWorkflow(file: File): Promise<boolean>;
}

export function createFileActions(
  api: StudioClient,
  studio: StudioStore = useStudio,
  download: (name: string, text: string) => void = downloadText,
): FileActions {
  const refuse = (fileName: string, reasons: ImportRefusal[]) => {
    const shown = reasons.slice(0, 3).map(describeRefusal).join('; ');
    const more = reasons.length > 3 ? ` (+${reasons.length - 3} more)` : '';
    studio.getState().showBanner({ kind: 'import-error', message: `Import of ${fileName} refused — ${shown}${more}. Nothing was changed.` });
    return false;
  };

  return {
    exportWorkflow() {
      const state = studio.getState();
      download(exportFileName(state.workflowId), workflowFileText(toDefinition(state)));
    },

    async importWorkflow(file) {
      const state = studio.getState();
      // The size is checked before the file is read, so a huge file is never loaded.
      const text = file.size > MAX_IMPORT_BYTES ? '' : await file.text();
      const checked = checkWorkflowFile(text, file.size, state.catalogState === 'ready' ? state.typeCatalog : undefined);
      if (!checked.ok) return refuse(file.name, checked.reasons);
      const serverIssues = await serverErrors(api, checked.definition);
      if (serverIssues.length > 0) return refuse(file.name, serverIssues);
      if (!(await confirmDiscard(studio, 'Importing opens the file as a new workflow.'))) return false;
      if (studio.getState().banner?.kind === 'import-error') studio.getState().showBanner(null);
      studio.getState().importWorkflow(checked.definition);
      return true;
    },
  };
}

/** The host's authoritative check (plugin config schemas); unreachable host = local rules only. */
async function serverErrors(api: StudioClient, definition: unknown): Promise<ImportRefusal[]> {
  try {
    const result = await api['workflows.validate']({ definition });
    return result.issues.filter((i) => i.severity === 'error').map(refusalOf);
  } catch {
    return [];
  }
}

function downloadText(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked on the next task: the download has started by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
