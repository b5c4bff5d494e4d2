import { useEffect } from 'react';
import type { FileActions } from './file-actions';

const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');

/**
 * A workflow file dropped anywhere on the window is imported into the current session (STU-08), checked
 * like one picked with Import (size, JSON, the workflow schema). Drags of palette items (no files) are left
 * to the canvas; with several files, the first is imported.
 */
export function useFileDrop(files: FileActions): void {
  useEffect(() => {
    const onDragOver = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault(); // allows the drop (and keeps the browser from opening the file)
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const onDrop = (e: DragEvent) => {
      const file = e.dataTransfer?.files[0];
      if (!hasFiles(e) || !file) return;
      e.preventDefault();
      void files.importWorkflow(file);
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
    };
  }, [files]);
}
