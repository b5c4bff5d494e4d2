import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { WorkerRegistry } from '../../engine/index';
import { CLOSE_CODES } from '../../shared/workers/worker-protocol';

/** TLS of the listener: wss with this certificate; with `ca`, workers must present a certificate it signed. */
export interface ListenerTls {
  cert: string;
  key: string;
  ca?: string;
}

export interface WorkerListenerOptions {
  registry: WorkerRegistry;
  host: string;
  port: number;
  path: string;
  /** `yukta.workers.token`: a worker's upgrade request must carry it as `Authorization: Bearer`. */
  token: string;
  tls?: ListenerTls;
  log: (level: 'info' | 'warn', text: string) => void;
}

export interface WorkerListener {
  /** `ws://host:port/path` or `wss://…`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The host's side of SCL-01's transport: a listener of its own (not serve mode's HTTP port), so mutual TLS can
 * require client certificates without asking browsers for one, the desktop app can take workers without the
 * HTTP API, and the port can be firewalled apart. The upgrade is refused (401) unless it carries the shared
 * token, compared in constant time; frames go to the engine's registry as text, within `maxPayload`.
 */
export async function startWorkerListener(options: WorkerListenerOptions): Promise<WorkerListener> {
  const { registry, log, tls } = options;
  const server = listenerServer(tls);
  const wss = new WebSocketServer({ noServer: true, maxPayload: registry.maxFrameBytes, perMessageDeflate: false });
  server.on('request', (_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' }).end('Yukta workers connect here over WebSocket (SCL-01).\n');
  });
  server.on('tlsClientError', (error, socket) => log('warn', `a worker connection from ${socket.remoteAddress ?? '?'} failed TLS: ${error.message}`));
  server.on(
    'upgrade',
    upgradeHandler(options, (req, socket, head, peer) => wss.handleUpgrade(req, socket, head, (ws) => attachWorker(ws, peer, registry, log))),
  );
  await listen(server, options.port, options.host);
  const address = server.address();
  const port = address !== null && typeof address === 'object' ? address.port : options.port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `${tls ? 'wss' : 'ws'}://${shownHost}:${port}${options.path}`;
  registry.setListener(url);
  return {
    url,
    async close() {
      registry.setListener(null);
      await Promise.all([...wss.clients].map((ws) => closeSocket(ws)));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      wss.close();
    },
  };
}

/** Plain HTTP, or HTTPS with the listener's certificate (and, with `ca`, client certificates required). */
function listenerServer(tls: ListenerTls | undefined): Server {
  return tls
    ? createHttpsServer({
        cert: readFileSync(tls.cert),
        key: readFileSync(tls.key),
        ...(tls.ca ? { ca: readFileSync(tls.ca), requestCert: true, rejectUnauthorized: true } : {}),
      })
    : createHttpServer();
}

type Accept = (req: IncomingMessage, socket: Duplex, head: Buffer, peer: string) => void;

/** Accepts an upgrade on the listener's path that carries the token (compared in constant time); refuses others. */
function upgradeHandler({ path: listenerPath, token, log }: Pick<WorkerListenerOptions, 'path' | 'token' | 'log'>, accept: Accept) {
  const expected = digest(token);
  return (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const peer = `${req.socket.remoteAddress ?? '?'}:${req.socket.remotePort ?? '?'}`;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== listenerPath) return refuseUpgrade(socket, 404, 'Not Found');
    const presented = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (!timingSafeEqual(digest(presented), expected)) {
      log('warn', `a worker connection from ${peer} was refused: ${presented ? 'wrong' : 'no'} token (yukta.workers.token)`);
      return refuseUpgrade(socket, 401, 'Unauthorized');
    }
    accept(req, socket, head, peer);
  };
}

/** One worker's socket as a registry connection: text frames in, binary ones refused, errors and the close told. */
function attachWorker(ws: WebSocket, peer: string, registry: WorkerRegistry, log: WorkerListenerOptions['log']): void {
  const connection = registry.connect({ peer, send: (frame) => ws.send(frame), close: (code, reason) => ws.close(code, reason) });
  ws.on('message', (data, isBinary) => {
    if (isBinary) {
      log('warn', `a worker connection from ${peer} sent a binary frame; connection dropped`);
      ws.close(CLOSE_CODES.malformed, 'binary frames are refused');
      connection.closed(CLOSE_CODES.malformed, 'binary frame');
      return;
    }
    connection.receive(data.toString());
  });
  // ws reports an oversized frame (maxPayload) or a broken one here, then closes with 1009/1002.
  ws.on('error', (error: Error & { code?: string }) => {
    const tooBig = error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';
    log(
      'warn',
      tooBig
        ? `a worker connection from ${peer} sent a frame over ${registry.maxFrameBytes} bytes (yukta.execution.max-message-bytes + 64 KiB); connection dropped`
        : `a worker connection from ${peer} failed: ${error.message}`,
    );
  });
  ws.on('close', (code, reason) => connection.closed(code, reason.toString()));
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Says why the host goes (4010), then gives a worker that does not answer the close (a stopped one) a second at most. */
function closeSocket(ws: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    if (ws.readyState === ws.CLOSED) return resolve();
    const timer = setTimeout(() => ws.terminate(), 1000);
    ws.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    ws.close(CLOSE_CODES.shutdown, 'the host is stopping');
  });
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
