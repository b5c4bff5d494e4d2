import { isAppUrl } from './app-origin';
import type { SenderFrameLike } from './ipc-types';

export interface TrustedSenderOptions {
  /** The Vite dev server (`YUKTA_DEV_SERVER_URL`) in development; its origin is trusted too. */
  devServerUrl?: string;
}

/**
 * The IPC sender check: only the studio's own top-level page may call the host. A frame inside it
 * (an iframe of some other content) or a window that navigated elsewhere is refused.
 */
export function createTrustedSenderCheck(options: TrustedSenderOptions = {}): (frame: SenderFrameLike | null) => boolean {
  return (frame) => {
    if (!frame) return false;
    if (frame.parent !== null && frame.parent !== undefined) return false;
    return isAppUrl(frame.url, options.devServerUrl);
  };
}
