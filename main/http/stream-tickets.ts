import { randomBytes } from 'node:crypto';
import type { Caller } from '../../shared/api/roles';

/** How long a ticket can wait for its stream (seconds). */
export const TICKET_TTL_SECONDS = 30;
/** Tickets waiting at once; past this the oldest is dropped (a client that never connects cannot grow memory). */
export const MAX_OPEN_TICKETS = 1000;

/**
 * Single-use tickets for the event stream (SEC-01): a browser's EventSource cannot send `Authorization`,
 * so the studio POSTs for a ticket with its key and opens the stream with `?ticket=`. A ticket is random
 * (144 bits), lives 30 s, works once and carries the caller it was issued to — never the key, so no key
 * ever appears in a URL, a log line or the browser history. Why tickets and not a cookie: docs/security.md.
 */
export class StreamTickets {
  private readonly open = new Map<string, { caller: Caller; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(caller: Caller): { ticket: string; expiresInSeconds: number } {
    this.prune();
    const ticket = randomBytes(18).toString('base64url');
    this.open.set(ticket, { caller, expiresAt: this.now() + TICKET_TTL_SECONDS * 1000 });
    if (this.open.size > MAX_OPEN_TICKETS) this.open.delete(this.open.keys().next().value!);
    return { ticket, expiresInSeconds: TICKET_TTL_SECONDS };
  }

  /** The caller of a valid ticket, which is used up; null for an unknown, used or expired one. */
  redeem(ticket: string): Caller | null {
    const entry = this.open.get(ticket);
    if (entry === undefined) return null;
    this.open.delete(ticket);
    return entry.expiresAt > this.now() ? entry.caller : null;
  }

  get size(): number {
    return this.open.size;
  }

  private prune(): void {
    const now = this.now();
    for (const [ticket, entry] of this.open) if (entry.expiresAt <= now) this.open.delete(ticket);
  }
}
