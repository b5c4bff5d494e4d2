import { useEffect } from 'react';
import type { OpenedFile } from '../../shared/desktop/desktop-bridge';
import { useStudio } from '../store/studio-store';
import type { FileActions } from '../features/workflow/file-actions';
import { findDesktopBridge } from './desktop-bridge';

/** Imports one file main opened, or shows why main refused it (the same banner as a refused Import). */
export function importOpenedFile(file: OpenedFile, files: FileActions, studio = useStudio): void {
  if ('refused' in file) {
    studio.getState().showBanner({ kind: 'import-error', message: `Opening ${file.name} refused — ${file.refused}. Nothing was changed.` });
    return;
  }
  void files.importWorkflow(new File([file.text], file.name, { type: 'application/json' }));
}

/**
 * Workflow files opened from the OS, the command line or File → Open… (STU-08): imported into the current
 * session like a file picked with Import (checked again here, with the node catalog and the host).
 */
export function useOpenedFiles(files: FileActions): void {
  useEffect(() => findDesktopBridge()?.onOpenFile((file) => importOpenedFile(file, files)), [files]);
}
