import type { OpenedFile } from '../../shared/desktop/desktop-bridge';
import type { WebContentsLike } from '../ipc/ipc-types';
import { readWorkflowFile } from './open-file';

export interface FileOpenerDeps {
  /** Remembers a file that opened (File → Open recent); forgets one that failed to. */
  recent: { add(path: string): void; remove(path: string): void };
  send(contents: WebContentsLike, file: OpenedFile): void;
  log(message: string): void;
}

/**
 * Hands checked workflow files to the renderer (STU-08). Files opened before the page listens (a launch
 * with a file, a second launch during a reload) wait here until the page says it is ready; a page that
 * starts loading again is not ready until it says so anew.
 */
export function createFileOpener(deps: FileOpenerDeps) {
  let ready: WebContentsLike | null = null;
  const waiting: OpenedFile[] = [];
  const deliver = (file: OpenedFile) => {
    if (ready && !ready.isDestroyed()) deps.send(ready, file);
    else waiting.push(file);
  };
  return {
    /** Reads, checks and delivers each path (relative ones against `cwd`). */
    open(paths: readonly string[], cwd: string): void {
      for (const input of paths) {
        const { path, ...file } = readWorkflowFile(input, cwd);
        if ('refused' in file) {
          deps.log(`yukta: workflow file ${file.name} refused: ${file.refused}`);
          if (path === undefined) deps.recent.remove(input);
        } else if (path) deps.recent.add(path);
        deliver(file);
      }
    },
    ready(contents: WebContentsLike): void {
      ready = contents;
      for (const file of waiting.splice(0)) deps.send(contents, file);
    },
    /** The page is (re)loading: hold files until it listens again. */
    notReady(): void {
      ready = null;
    },
  };
}
