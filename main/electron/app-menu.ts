import { assertNever } from '../../shared/assert-never';
import type { MenuItemConstructorOptions } from 'electron';
import type { CommandId } from '../../shared/desktop/commands';
import { menuTemplate, type MainAction, type MenuItemData, type MenuState } from './menu-template';

/** What the menu's items call: a command goes to the renderer; an action runs in main (with a file for open-recent). */
export interface MenuHandlers {
  command(id: CommandId): void;
  action(action: MainAction, path?: string): void;
}

/**
 * The menu data as Electron's template. Accelerators are shown, but on Windows and Linux not registered
 * (`registerAccelerator: false`): the renderer's keyboard handler is the one key path there, so a key
 * never runs a command twice; on macOS a key equivalent reaches the menu only when the page left the key
 * unhandled. Radio items (the theme) carry their checked state.
 */
export function toElectronTemplate(items: readonly MenuItemData[], handlers: MenuHandlers): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    switch (item.kind) {
      case 'separator':
        return { type: 'separator' };
      case 'role':
        return { role: item.role, ...(item.label ? { label: item.label } : {}) };
      case 'submenu':
        return { label: item.label, submenu: toElectronTemplate(item.items, handlers), ...(item.role ? { role: item.role } : {}) };
      case 'command':
        return {
          label: item.label,
          ...(item.accelerator ? { accelerator: item.accelerator, registerAccelerator: false } : {}),
          click: () => handlers.command(item.id),
        };
      case 'action':
        return {
          label: item.label,
          ...(item.accelerator ? { accelerator: item.accelerator } : {}),
          ...(item.checked === undefined ? {} : { type: 'radio' as const, checked: item.checked }),
          click: () => handlers.action(item.action, item.path),
        };
      default:
        return assertNever(item, 'menu item');
    }
  });
}

/** The template for a state (what `Menu.buildFromTemplate` gets). */
export function appMenuTemplate(state: MenuState, handlers: MenuHandlers): MenuItemConstructorOptions[] {
  return toElectronTemplate(menuTemplate(state), handlers);
}
