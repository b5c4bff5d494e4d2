import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import type { AgentSession, WorkerAgent, WorkerIdentity } from '../../engine/index';
import { CLOSE_CODES } from '../../shared/workers/worker-protocol';
import type { WorkerTls } from '../workers/listener-settings';
import { reconnectPause } from './reconnect-pause';

export interface WorkerClientOptions {
  /** Host addresses, tried in turn (`--control-plane`); a standby refuses and the next is tried. */
  urls: readonly string[];
  token: string;
  agent: WorkerAgent;
  identity: WorkerIdentity;
  /** The largest frame read from the host (its message limit and envelope). */
  maxPayload: number;
  tls?: WorkerTls | null;
  log: (text: string) => void;
  random?: () => number;
}

/** How one connection ended: it was welcomed and later closed, refused by the host, or never got that far. */
type SessionEnd = 'ended' | 'refused' | 'failed';

/**
 * A worker's connections (SCL-01): tries each address in turn until one welcomes it, renews the lease three
 * times per lease while connected, and after a lost connection or a round of refusals tries again after a
 * growing, jittered pause. TLS verifies the host's certificate and name (Node's default), against `ca` when set.
 */
export class WorkerClient {
  private stopped = false;
  private socket: WebSocket | null = null;
  private session: AgentSession | null = null;
  private pauseTimer: NodeJS.Timeout | null = null;
  private wakePause: (() => void) | null = null;
  private readonly tls: { ca?: Buffer; cert?: Buffer; key?: Buffer };
  /** The address that welcomed it, while connected. */
  connectedTo: string | null = null;
  readonly done: Promise<void>;

  constructor(private readonly options: WorkerClientOptions) {
    const files = options.tls ?? {};
    this.tls = {
      ...(files.ca ? { ca: readFileSync(files.ca) } : {}),
      ...(files.cert ? { cert: readFileSync(files.cert) } : {}),
      ...(files.key ? { key: readFileSync(files.key) } : {}),
    };
    this.done = this.loop();
  }

  /** Says `draining` to the host at once (not at the next renewal), so it sends no new attempts. */
  renewNow(): void {
    this.session?.renew();
  }

  /** Stops connecting; the connection in place closes normally. */
  stop(reason = 'the worker stopped'): Promise<void> {
    this.stopped = true;
    if (this.pauseTimer) clearTimeout(this.pauseTimer);
    this.wakePause?.();
    this.socket?.close(CLOSE_CODES.normal, reason);
    return this.done;
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      let registered = false;
      for (const url of this.options.urls) {
        if (this.stopped) return;
        const end = await this.connect(url);
        if (end === 'ended') {
          registered = true;
          break;
        }
      }
      if (this.stopped) return;
      failures = registered ? 0 : failures + 1;
      const pause = reconnectPause(failures, this.options.random);
      this.options.log(`${registered ? 'connection lost' : `no host took this worker (${this.options.urls.join(', ')})`}; trying again in ${pause} ms`);
      await new Promise<void>((resolve) => {
        this.wakePause = resolve;
        this.pauseTimer = setTimeout(resolve, pause);
      });
    }
  }

  private connect(url: string): Promise<SessionEnd> {
    const { log, agent, identity } = this.options;
    return new Promise<SessionEnd>((resolve) => {
      let end: SessionEnd = 'failed';
      let renew: NodeJS.Timeout | null = null;
      const ws = new WebSocket(url, {
        headers: { authorization: `Bearer ${this.options.token}` },
        maxPayload: this.options.maxPayload,
        perMessageDeflate: false,
        handshakeTimeout: 10_000,
        ...this.tls,
      });
      this.socket = ws;
      ws.on('open', () => {
        this.session = agent.connect((frame) => ws.send(frame), identity, {
          welcomed: (welcome) => {
            end = 'ended';
            this.connectedTo = url;
            log(`registered with ${url} as "${welcome.name}" (pool ${identity.pool}; lease ${welcome.leaseMs} ms)`);
            renew = setInterval(() => this.session?.renew(), Math.max(1, Math.floor(welcome.leaseMs / 3)));
          },
          refused: (reason, message) => {
            end = 'refused';
            log(`${url} refused this worker: ${reason}: ${message}`);
            ws.close(CLOSE_CODES.normal, reason);
          },
          broken: (code, reason) => {
            log(`dropping the connection to ${url}: ${reason}`);
            ws.close(code, reason.slice(0, 120));
          },
        });
      });
      ws.on('message', (data) => this.session?.receive(data.toString()));
      // A refused upgrade is said once: terminating it raises ws's generic "closed before the connection was established" too.
      let explained = false;
      ws.on('unexpected-response', (_req, res) => {
        explained = true;
        log(`${url} refused the connection: HTTP ${res.statusCode}${res.statusCode === 401 ? ' (wrong or missing token: yukta.workers.token)' : ''}`);
        ws.terminate();
      });
      ws.on('error', (error) => explained || log(`cannot connect to ${url}: ${error.message}`));
      ws.on('close', (code, reason) => {
        if (renew) clearInterval(renew);
        if (end === 'ended') log(`the connection to ${url} closed (code ${code}${reason.length ? `: ${reason.toString()}` : ''})`);
        this.session?.closed(`code ${code}`);
        this.session = null;
        this.socket = null;
        this.connectedTo = null;
        resolve(end);
      });
    });
  }
}
