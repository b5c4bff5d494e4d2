import { create } from 'zustand';
import type { ServerTarget } from '../../api/server-target';

/** The host this page talks to, set once at start (main.tsx); switching reloads the page. */
export const useServerTarget = create<{ target: ServerTarget }>(() => ({ target: { kind: 'local' } }));
