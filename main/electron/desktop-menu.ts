import { Menu } from 'electron';
import { appMenuTemplate, type MenuHandlers } from './app-menu';
import type { MenuState } from './menu-template';

/** Sets the application menu from its data (STU-08); `refresh` rebuilds it when recent files or the theme change. */
export function installAppMenu(state: () => MenuState, handlers: MenuHandlers): { refresh(): void } {
  const refresh = () => Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(state(), handlers)));
  refresh();
  return { refresh };
}
