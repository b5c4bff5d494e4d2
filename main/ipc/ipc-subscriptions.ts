import { z } from 'zod';
import { StudioApiError } from '../../shared/api/errors';
import { EventFilter } from '../../shared/events/events';
import type { StudioHost } from '../host/studio-host';
import { EVENTS_CHANNEL } from './ipc-channels';
import type { WebContentsLike } from './ipc-types';

/** More live subscriptions than this from one page is a leak in the page; refuse instead of growing. */
export const MAX_SUBSCRIPTIONS_PER_PAGE = 256;

/**
 * What the preload sends to subscribe. The preload picks `id` (so it can route batches before the call
 * returns) and `page`, a random token per page load: a new token from a webContents means it reloaded,
 * and the old page's subscriptions are dropped.
 */
export const SubscribeRequest = z.object({
  page: z.string().min(1).max(64),
  id: z.string().min(1).max(64),
  filter: EventFilter.default({}),
});
export type SubscribeRequest = z.infer<typeof SubscribeRequest>;

interface PageSubscriptions {
  page: string;
  contents: WebContentsLike;
  byId: Map<string, () => void>;
}

/** Event subscriptions of renderer pages: batches go out on `yukta:events` as `(id, batch)`. */
export class IpcSubscriptions {
  private readonly pages = new Map<number, PageSubscriptions>();

  constructor(private readonly host: StudioHost) {}

  subscribe(contents: WebContentsLike, request: SubscribeRequest): void {
    const entry = this.entryFor(contents, request.page);
    if (entry.byId.has(request.id)) throw new StudioApiError('CONFLICT', `subscription "${request.id}" already exists`, 'id');
    if (entry.byId.size >= MAX_SUBSCRIPTIONS_PER_PAGE)
      throw new StudioApiError('CONFLICT', `a page may hold at most ${MAX_SUBSCRIPTIONS_PER_PAGE} subscriptions`);
    const unsubscribe = this.host.subscribe(request.filter, (batch) => {
      if (!contents.isDestroyed()) contents.send(EVENTS_CHANNEL, request.id, batch);
    });
    entry.byId.set(request.id, unsubscribe);
  }

  /** Ends one subscription; unknown ids are ignored (the page may unsubscribe twice). */
  unsubscribe(contents: WebContentsLike, id: string): void {
    const entry = this.pages.get(contents.id);
    const off = entry?.byId.get(id);
    if (!entry || !off) return;
    entry.byId.delete(id);
    off();
  }

  /** Ends every subscription of a webContents (it was destroyed). */
  drop(contentsId: number): void {
    const entry = this.pages.get(contentsId);
    if (!entry) return;
    this.pages.delete(contentsId);
    for (const off of entry.byId.values()) off();
  }

  closeAll(): void {
    for (const id of [...this.pages.keys()]) this.drop(id);
  }

  /** Live subscriptions of a webContents (for tests and diagnostics). */
  count(contentsId: number): number {
    return this.pages.get(contentsId)?.byId.size ?? 0;
  }

  private entryFor(contents: WebContentsLike, page: string): PageSubscriptions {
    const existing = this.pages.get(contents.id);
    if (existing && existing.page === page) return existing;
    if (existing)
      this.drop(contents.id); // the page reloaded: its old subscriptions are dead
    else contents.once('destroyed', () => this.drop(contents.id));
    const entry: PageSubscriptions = { page, contents, byId: new Map() };
    this.pages.set(contents.id, entry);
    return entry;
  }
}
