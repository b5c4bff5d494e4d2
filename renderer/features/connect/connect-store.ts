import { create } from 'zustand';
import type { ServerTarget } from '../../api/server-target';

/** A connection that was refused when the page opened for it, for the dialog to show. */
export interface ConnectRefusal {
  url: string;
  /** What was typed, so the dialog shows it again after the page was opened for the server. */
  apiKey: string;
  field: 'url' | 'apiKey';
  message: string;
}

/** The host this page talks to, set once at start (main.tsx); switching reloads the page. */
export const useServerTarget = create<{ target: ServerTarget; refusal: ConnectRefusal | null }>(() => ({ target: { kind: 'local' }, refusal: null }));
