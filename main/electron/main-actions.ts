import { join } from 'node:path';
import { app, dialog, nativeTheme, shell, type BrowserWindow } from 'electron';
import { packageRoot } from '../cli/paths';
import { aboutText, type MainAction, type Theme } from './menu-template';

export interface MainActionDeps {
  window(): BrowserWindow | null;
  /** Opens workflow files (checked, then imported by the renderer). */
  openFiles(paths: string[]): void;
  recent: { clear(): void };
  /** The menu changed (recent files, theme). */
  refreshMenu(): void;
}

/** Where the reference page is: beside the app in a checkout, in the resources of a packaged app. */
function documentationFile(): string {
  return app.isPackaged ? join(process.resourcesPath, 'docs', 'reference.md') : join(packageRoot(__dirname), 'docs', 'reference.md');
}

/**
 * What the menu's main-process items do (STU-08): File → Open… (a native dialog for workflow files), recent
 * files, the theme (Electron's `nativeTheme`, which the page's `prefers-color-scheme` follows), the
 * reference page, About with every version, reload and the developer tools.
 */
export function createMainActions(deps: MainActionDeps): { run(action: MainAction, path?: string): void; theme(): Theme } {
  const setTheme = (theme: Theme) => {
    nativeTheme.themeSource = theme;
    deps.refreshMenu();
  };
  const handlers: { [A in MainAction]: (path?: string) => void | Promise<void> } = {
    'open-file': async () => {
      const window = deps.window();
      const options = {
        title: 'Open a workflow file',
        properties: ['openFile' as const, 'multiSelections' as const],
        filters: [{ name: 'Workflow files', extensions: ['json'] }],
      };
      const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
      if (!result.canceled) deps.openFiles(result.filePaths);
    },
    'open-recent': (path) => {
      if (path) deps.openFiles([path]);
    },
    'clear-recent': () => {
      deps.recent.clear();
      app.clearRecentDocuments?.();
      deps.refreshMenu();
    },
    'theme-system': () => setTheme('system'),
    'theme-light': () => setTheme('light'),
    'theme-dark': () => setTheme('dark'),
    documentation: async () => {
      const problem = await shell.openPath(documentationFile());
      if (problem) console.warn(`yukta: cannot open the documentation: ${problem}`);
    },
    about: async () => {
      const detail = aboutText({ name: app.getName(), version: app.getVersion() }, process.versions);
      const window = deps.window();
      const options = { type: 'info' as const, title: `About ${app.getName()}`, message: app.getName(), detail, buttons: ['OK'] };
      await (window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options));
    },
    reload: () => deps.window()?.webContents.reload(),
    'toggle-devtools': () => deps.window()?.webContents.toggleDevTools(),
  };
  return {
    run(action, path) {
      void Promise.resolve(handlers[action](path)).catch((error: unknown) => console.error(`yukta: menu action ${action} failed`, error));
    },
    theme: () => nativeTheme.themeSource,
  };
}
