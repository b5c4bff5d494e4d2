import type { Caller } from '../../shared/api/roles';
import type { EventBatchListener } from '../../shared/api/transport';
import type { EventFilter, StudioEvent } from '../../shared/events/events';
import { targetOf, type CallerInvoke } from './mcp-resources';
import { McpRequestError, RESOURCE_NOT_FOUND, resourceError } from './mcp-request-error';

/** What the subscriptions need of the host: its event feed and which session a run belongs to. */
export interface EventFeed {
  subscribe(filter: EventFilter, listener: EventBatchListener): () => void;
  runSession(executionId: string): string | null;
}

/**
 * The resource subscriptions of one MCP connection: a subscribed run's URI is notified
 * (`notifications/resources/updated`) once per event batch of that run, `yukta://approvals` once per batch
 * of APPROVAL events. Progress comes from the host's event subscription, the same feed SSE and IPC read.
 */
export class ResourceSubscriptions {
  private readonly open = new Map<string, () => void>();

  constructor(
    private readonly feed: EventFeed,
    private readonly invoke: CallerInvoke,
    private readonly caller: () => Caller,
    private readonly notify: (uri: string) => void,
  ) {}

  /** Subscribes after reading the resource once, so a caller may only follow what it may read (roles, sessions). */
  async subscribe(uri: string): Promise<void> {
    const target = targetOf(uri);
    if (target.kind === 'workflow')
      throw new McpRequestError(RESOURCE_NOT_FOUND, `${uri} sends no updates: only runs (yukta://runs/<executionId>) and yukta://approvals can be subscribed`, {
        uri,
      });
    const readable = await this.invoke(target.read.operation, target.read.input);
    if (!readable.ok) throw resourceError(readable.error);
    if (this.open.has(uri)) return;
    const filter: EventFilter = target.kind === 'run' ? { executionId: target.executionId } : { type: ['APPROVAL'] };
    const visible = (event: StudioEvent): boolean => this.mayFollow(event);
    this.open.set(
      uri,
      this.feed.subscribe(filter, (batch) => {
        if (batch.some(visible)) this.notify(uri);
      }),
    );
  }

  unsubscribe(uri: string): void {
    this.open.get(uri)?.();
    this.open.delete(uri);
  }

  close(): void {
    for (const unsubscribe of this.open.values()) unsubscribe();
    this.open.clear();
  }

  /** A key limited to sessions (SEC-01) hears only of its sessions' runs, as on the SSE stream. */
  private mayFollow(event: StudioEvent): boolean {
    const sessions = this.caller().sessions;
    if (!sessions) return true;
    const session = event.type === 'EXECUTION_STATUS' ? event.session : this.feed.runSession(event.executionId);
    return session !== null && sessions.includes(session);
  }
}
