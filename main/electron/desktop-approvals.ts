import { app, Notification, type BrowserWindow } from 'electron';
import type { StudioHost } from '../host/studio-host';
import { LOCAL_UI_CALLER } from '../host/studio-host';
import { parseApprovalLink } from '../../shared/api/approval-notice';
import { startApprovalNotifier, type ApprovalNotifier } from './approval-notifier';
import { approvalDeepLink } from './deep-link';

/** Notifications shown and not yet clicked or closed: kept referenced, or a click may never arrive. */
const shown = new Set<Notification>();

/**
 * The approval notifier on Electron: native notifications (`Notification`), the dock/taskbar badge
 * (`app.setBadgeCount`, macOS and Linux launchers), and a click that opens the approval's `yukta://` link
 * (main.ts: the window comes forward with the inbox at that approval).
 */
export function startDesktopApprovals(host: StudioHost, openDeepLink: (link: string) => void): ApprovalNotifier {
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
    // A click goes through the yukta:// link, like the OS protocol handler (one path to the inbox).
    openLink: (hash) => {
      const approval = parseApprovalLink(hash);
      if (approval) openDeepLink(approvalDeepLink(approval));
    },
  });
}

/** Restores and focuses the window and moves it in-page to a renderer address (`#/inbox/…`, no reload). */
export function showStudioAt(win: BrowserWindow | null, hash: string): void {
  if (!win) return;
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
  const page = win.webContents.getURL().split('#')[0] ?? '';
  void win.webContents.loadURL(page + hash);
}
