import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { AddressInfo, LookupFunction } from 'node:net';

/** A request a local test server received. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface LocalServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly port: number;
  readonly requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * An HTTP server on a loopback address for tests (no outside traffic). The handler gets the request with
 * its body already read.
 */
export function startServer(handler: (req: SeenRequest, res: ServerResponse) => void | Promise<void>, host = '127.0.0.1'): Promise<LocalServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(seen);
      void Promise.resolve(handler(seen, res)).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
  });
  return new Promise((resolve) => {
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://${host}:${port}`,
        port,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A resolver for tests: names map to the given addresses; anything else does not resolve. */
export function testLookup(names: Record<string, string>): LookupFunction {
  return ((hostname: string, options: { all?: boolean } | number | undefined, callback: (...args: unknown[]) => void) => {
    const address = names[hostname];
    const all = typeof options === 'object' && options !== null && options.all === true;
    setImmediate(() => {
      if (!address) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
      const family = address.includes(':') ? 6 : 4;
      if (all) callback(null, [{ address, family } satisfies LookupAddress]);
      else callback(null, address, family);
    });
  }) as unknown as LookupFunction;
}
