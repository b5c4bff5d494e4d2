import { app, Notification, type BrowserWindow } from 'electron';
import type { StudioHost } from '../host/studio-host';
import { LOCAL_UI_CALLER } from '../host/studio-host';
import { startApprovalNotifier, type ApprovalNotifier } from './approval-notifier';

/** Notifications shown and not yet clicked or closed: kept referenced, or a click may never arrive. */
const shown = new Set<Notification>();

/**
 * The approval notifier on Electron: native notifications (`Notification`), the dock/taskbar badge
 * (`app.setBadgeCount`, macOS and Linux launchers), and a click that restores and focuses the window and
 * navigates it in-page to the inbox item (`#/inbox/…`, no reload).
 */
export function startDesktopApprovals(host: StudioHost, window: () => BrowserWindow | null): ApprovalNotifier {
  return startApprovalNotifier({
    subscribe: (filter, listener) => host.subscribe(filter, listener),
    listApprovals: async () => {
      const result = await host.invoke('approvals.list', { limit: 1000 }, LOCAL_UI_CALLER);
      return result.ok ? result.value : [];
    },
    notify: ({ title, body, onClick }) => {
      if (typeof Notification?.isSupported !== 'function' || !Notification.isSupported()) return;
      const notification = new Notification({ title, body });
      shown.add(notification);
      notification.on('click', () => (shown.delete(notification), onClick()));
      notification.on('close', () => shown.delete(notification));
      notification.show();
    },
    setBadge: (count) => void app.setBadgeCount?.(count),
    openLink: (hash) => {
      const win = window();
      if (!win) return;
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
      const page = win.webContents.getURL().split('#')[0] ?? '';
      void win.webContents.loadURL(page + hash);
    },
  });
}
