import { decodeFrame, encodeFrame } from '../../shared/workers/worker-frames';
import { CLOSE_CODES, HostToWorker, type RefusalReason, type Welcome } from '../../shared/workers/worker-protocol';
import type { WorkerAgent } from './worker-agent';
import { WORKER_DEFAULTS } from './worker-registry';

/** How a worker names itself on every connection. */
export interface WorkerIdentity {
  name: string;
  pool: string;
  version: string;
}

/** What one connection tells the worker's client (which keeps the socket, the lease timer and the reconnects). */
export interface AgentSessionEvents {
  welcomed(welcome: Welcome): void;
  /** The host refused the registration (a standby: `not_leader`); the client tries the next address. */
  refused(reason: RefusalReason, message: string): void;
  /** The host broke the protocol or sent a refused frame: the client drops the connection with `code`. */
  broken(code: number, reason: string): void;
}

/**
 * One connection of a worker (SCL-01): says HELLO at once, reads WELCOME or REFUSED, then feeds the host's
 * stream messages to the agent. RENEW carries the lease and the draining state.
 */
export class AgentSession {
  private welcome: Welcome | null = null;
  private over = false;

  constructor(
    private readonly agent: WorkerAgent,
    private readonly write: (frame: string) => void,
    identity: WorkerIdentity,
    private readonly events: AgentSessionEvents,
  ) {
    write(encodeFrame([agent.hello(identity.name, identity.pool, identity.version)]));
  }

  get welcomed(): Welcome | null {
    return this.welcome;
  }

  receive(text: string): void {
    if (this.over) return;
    const decoded = decodeFrame(text, HostToWorker, this.welcome?.maxDepth ?? WORKER_DEFAULTS.maxDepth);
    if (!decoded.ok) return this.break(decoded.code, `the host sent a refused frame: ${decoded.reason}`);
    for (const message of decoded.messages) {
      if (this.over) return;
      if (message.t === 'WELCOME' || message.t === 'REFUSED') {
        if (this.welcome !== null) return this.break(CLOSE_CODES.policy, `${message.t} after WELCOME`);
        if (message.t === 'REFUSED') {
          this.over = true;
          this.events.refused(message.reason, message.message);
          return;
        }
        this.welcome = message;
        this.agent.attach(message, this.write);
        this.events.welcomed(message);
        continue;
      }
      if (this.welcome === null) return this.break(CLOSE_CODES.policy, `${message.t} before WELCOME`);
      const problem = this.agent.receive(message);
      if (problem !== null) return this.break(CLOSE_CODES.policy, problem);
    }
  }

  /** Renews the lease; once draining, says so (the host then sends no new attempts). */
  renew(): void {
    if (this.welcome !== null && !this.over) this.write(encodeFrame([{ t: 'RENEW', draining: this.agent.isDraining }]));
  }

  /** The socket closed: attempts still running here are stopped (their results cannot be delivered). */
  closed(reason: string): void {
    const wasWelcomed = this.welcome !== null;
    this.over = true;
    this.welcome = null;
    if (wasWelcomed) this.agent.detach(reason);
  }

  private break(code: number, reason: string): void {
    this.over = true;
    this.events.broken(code, reason);
  }
}
