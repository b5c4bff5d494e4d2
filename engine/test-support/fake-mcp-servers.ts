import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** The stdio fake: run `node <this path>` (tools add, echo, fail, whoami). */
export const FAKE_MCP_STDIO_SERVER = fileURLToPath(new URL('./fake-mcp-stdio-server.mjs', import.meta.url));

/** A fake MCP server over streamable HTTP on 127.0.0.1 (stateless: one server per request, as the SDK shows). */
export interface FakeMcpHttpServer {
  /** `http://127.0.0.1:PORT/mcp` */
  readonly url: string;
  /** Tool calls the server answered, in order (`name` and arguments). */
  readonly calls: Array<{ name: string; args: unknown }>;
  /** Headers of every HTTP request it got. */
  readonly requests: Array<IncomingMessage['headers']>;
  /** The next `tools/call` POSTs get these HTTP statuses instead of an answer (e.g. `[503]`). */
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
}

function fakeServer(calls: Array<{ name: string; args: unknown }>): McpServer {
  const server = new McpServer({ name: 'fake-http', version: '1.0.0' });
  server.registerTool('add', { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => {
    calls.push({ name: 'add', args: { a, b } });
    return { content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } };
  });
  server.registerTool('echo', { description: 'Echoes text', inputSchema: { text: z.string() } }, ({ text }) => {
    calls.push({ name: 'echo', args: { text } });
    return { content: [{ type: 'text', text }] };
  });
  return server;
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text ? (JSON.parse(text) as unknown) : undefined);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

export function startFakeMcpHttpServer(): Promise<FakeMcpHttpServer> {
  const calls: Array<{ name: string; args: unknown }> = [];
  const requests: Array<IncomingMessage['headers']> = [];
  const failures: number[] = [];
  const http = createServer((req, res) => {
    requests.push(req.headers);
    if (req.method !== 'POST' || req.url !== '/mcp') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    void readJson(req).then(async (body) => {
      const method = (body as { method?: unknown } | undefined)?.method;
      const failure = method === 'tools/call' ? failures.shift() : undefined;
      if (failure !== undefined) {
        res.writeHead(failure, { 'content-type': 'text/plain' }).end(`fake failure ${failure}`);
        return;
      }
      const server = fakeServer(calls);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    });
  });
  return new Promise((resolve) => {
    http.listen(0, '127.0.0.1', () => {
      const { port } = http.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/mcp`,
        calls,
        requests,
        failNext: (...statuses) => void failures.push(...statuses),
        close: () =>
          new Promise<void>((done) => {
            http.closeAllConnections();
            http.close(() => done());
          }),
      });
    });
  });
}
