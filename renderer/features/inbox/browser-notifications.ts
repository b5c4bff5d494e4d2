import { approvalNotice } from '../../../shared/api/approval-notice';
import { findBridge } from '../../api/bridge';
import { approvalKey } from '../../store/inbox-store';
import type { ApprovalAnnouncer } from './inbox-actions';

/** The parts of the browser's Notification API the inbox uses (a fake in tests). */
export interface NotificationLike {
  onclick: ((this: unknown, event: Event) => unknown) | null;
  close(): void;
}
export interface NotificationApi {
  readonly permission: NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
  new (title: string, options?: NotificationOptions): NotificationLike;
}

/** The page's Notification API, unless the studio runs in the desktop app (there the main process notifies). */
export function pageNotifications(scope: unknown = globalThis): NotificationApi | null {
  if (findBridge(scope)) return null;
  const api = (scope as { Notification?: NotificationApi }).Notification;
  return typeof api === 'function' ? api : null;
}

/**
 * In a browser: one notification per new approval when the user allowed them (the inbox offers to ask);
 * clicking it focuses the studio and opens the item. Nothing when not permitted.
 */
export function browserAnnouncer(open: (key: string) => void, api: NotificationApi | null = pageNotifications()): ApprovalAnnouncer | null {
  if (!api) return null;
  return (approval) => {
    if (api.permission !== 'granted') return;
    const key = approvalKey(approval);
    const { title, body } = approvalNotice(approval);
    const notification = new api(title, { body, tag: key });
    notification.onclick = () => {
      window.focus();
      open(key);
      notification.close();
    };
  };
}
