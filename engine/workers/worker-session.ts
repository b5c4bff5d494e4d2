import { decodeFrame, encodeFrame, type FrameRefusal } from '../../shared/workers/worker-frames';
import { CLOSE_CODES, WORKER_PROTOCOL_VERSION, WorkerToHost, type Hello, type RefusalReason } from '../../shared/workers/worker-protocol';
import type { ConnectedWorker, StreamMessage, WorkerLink } from './connected-worker';

/** What the transport calls for one connection: each text frame as it arrives, and the close. */
export interface WorkerConnection {
  receive(text: string): void;
  closed(code: number, reason: string): void;
}

/** The registry as one connection sees it. */
export interface SessionHost {
  readonly maxDepth: number;
  isLeader(): boolean;
  /** Registers the worker (replacing a connected one of the same name) and welcomes it. */
  register(hello: Hello, link: WorkerLink): ConnectedWorker;
  renew(worker: ConnectedWorker, draining: boolean): void;
  remove(worker: ConnectedWorker, reason: string): void;
  log(level: 'info' | 'warn', text: string): void;
}

/**
 * One worker connection on the host (SCL-01): the first message must be HELLO, which is welcomed or refused
 * (a standby refuses with `not_leader`, another protocol version with `protocol_version`); then RENEWs and
 * the attempts' stream messages. A frame that is not JSON, too deep, or breaks the protocol is logged and
 * drops this connection only: the host and its other workers are unharmed.
 */
export class WorkerSession implements WorkerConnection {
  private worker: ConnectedWorker | null = null;
  private over = false;

  constructor(
    private readonly host: SessionHost,
    private readonly link: WorkerLink,
  ) {}

  receive(text: string): void {
    if (this.over) return;
    const decoded = decodeFrame(text, WorkerToHost, this.host.maxDepth);
    if (!decoded.ok) return this.refuseFrame(decoded);
    for (const message of decoded.messages) {
      const problem = this.handle(message);
      if (problem !== null) return this.refuseFrame({ ok: false, code: CLOSE_CODES.policy, reason: problem });
      if (this.over) return;
    }
  }

  closed(code: number, reason: string): void {
    if (this.over && this.worker === null) return;
    this.over = true;
    const worker = this.worker;
    this.worker = null;
    if (worker) this.host.remove(worker, `its connection closed (code ${code}${reason ? `: ${reason}` : ''})`);
  }

  private handle(message: WorkerToHost): string | null {
    if (message.t === 'HELLO') return this.worker === null ? this.hello(message) : 'a second HELLO';
    if (this.worker === null) return `${message.t} before HELLO`;
    if (message.t === 'RENEW') {
      this.host.renew(this.worker, message.draining);
      return null;
    }
    return this.worker.receive(message satisfies StreamMessage);
  }

  private hello(hello: Hello): null {
    if (hello.protocol !== WORKER_PROTOCOL_VERSION)
      return this.refuse('protocol_version', `this host speaks worker protocol ${WORKER_PROTOCOL_VERSION}, the worker ${hello.protocol}`, hello);
    if (!this.host.isLeader()) return this.refuse('not_leader', 'this host is a standby: connect to the leader', hello);
    this.worker = this.host.register(hello, this.link);
    return null;
  }

  private refuse(reason: RefusalReason, message: string, hello: Hello): null {
    this.host.log('warn', `worker "${hello.name}" (pool ${hello.pool}) from ${this.link.peer} refused: ${reason}: ${message}`);
    this.link.send(encodeFrame([{ t: 'REFUSED', reason, message }]));
    this.over = true;
    this.link.close(CLOSE_CODES.refused, reason);
    return null;
  }

  private refuseFrame(refusal: FrameRefusal): void {
    const who = this.worker ? `worker "${this.worker.name}"` : 'a worker connection';
    this.host.log('warn', `${who} from ${this.link.peer} sent a refused frame: ${refusal.reason}; connection dropped`);
    this.link.close(refusal.code, refusal.reason.slice(0, 120));
    this.closed(refusal.code, refusal.reason);
  }
}
