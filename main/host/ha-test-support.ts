/**
 * Active/standby pairs of real `yukta serve` child processes on one PostgreSQL database (SCL-02), for the
 * failover tests and the failover benchmark: spawn, read the status, poll for a state with a deadline.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

export interface ServedHost {
  readonly name: string;
  readonly child: ChildProcess;
  readonly url: string;
  readonly output: string[];
  readonly exited: Promise<number | null>;
  readonly dataDir: string;
}

export interface HaStatusBody {
  role: 'leader' | 'standby' | 'deposed';
  fence: number | null;
  leader: { name: string; url: string | null } | null;
  stepDowns: Record<string, number>;
  refusedWrites: number;
}

/** `yukta serve --store postgres` with `yukta.ha.mode=postgres`, as host `name`; resolves once it is listening. */
export async function serveHa(name: string, options: { url: string; schema: string; leaseMs: number; env?: Record<string, string> }): Promise<ServedHost> {
  const dataDir = mkdtempSync(join(tmpdir(), `yukta-ha-${name}-`));
  const env = {
    ...process.env,
    YUKTA_CLI_FROM_SOURCE: '1',
    YUKTA_POSTGRES_URL: options.url,
    YUKTA_POSTGRES_SCHEMA: options.schema,
    YUKTA_HA_MODE: 'postgres',
    YUKTA_HA_LEASE: String(options.leaseMs),
    YUKTA_HA_HOST_NAME: name,
    ...options.env,
  };
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'yukta.mjs'), 'serve', '--store', 'postgres', '--port', '0', '--data', dataDir], { env });
  const exited = new Promise<number | null>((res) => child.on('close', (code) => (rmSync(dataDir, { recursive: true, force: true }), res(code))));
  const output: string[] = [];
  child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
  const url = await new Promise<string>((res, rej) => {
    let rest = '';
    child.stdout!.on('data', (d: Buffer) => {
      const lines = (rest + d.toString()).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        output.push(line);
        const found = /^Yukta Studio serving at (http:\/\/127\.0\.0\.1:\d+)$/.exec(line)?.[1];
        if (found) res(found);
      }
    });
    void exited.then(() => rej(new Error(`serve ${name} exited before listening: ${output.join('\n')}`)));
  });
  return { name, child, url, output, exited, dataDir };
}

export async function api(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** A request with headers `fetch` will not send as given (Host), answering the status code. */
export function rawStatus(url: string, method: string, path: string, headers: Record<string, string>, body = ''): Promise<number> {
  return new Promise((res, rej) => {
    const req = request(
      `${url}${path}`,
      { method, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
      (r) => {
        r.resume();
        r.on('end', () => res(r.statusCode ?? 0));
      },
    );
    req.on('error', rej);
    req.end(body);
  });
}

export async function haStatus(host: ServedHost): Promise<HaStatusBody> {
  return (await api(host.url, 'GET', '/api/ha')).json as unknown as HaStatusBody;
}

/** Polls `check` every 20 ms until it returns a value, or fails after `deadlineMs` naming `what`. */
export async function pollFor<T>(what: string, deadlineMs: number, check: () => Promise<T | undefined | null | false>): Promise<T> {
  const end = performance.now() + deadlineMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined && value !== null && value !== false) return value;
    if (performance.now() > end) throw new Error(`${what}: not within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A Prometheus counter's total over its labels, read from `GET /metrics`. */
export async function metricTotal(host: ServedHost, name: string, label?: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(`${host.url}/metrics`, { headers });
  if (!res.ok) throw new Error(`GET /metrics: ${res.status}`);
  const text = await res.text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    if (label !== undefined && !line.includes(label)) continue;
    const rest = line.slice(name.length);
    if (rest.startsWith(' ') || rest.startsWith('{')) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/**
 * A TCP proxy in front of the database (node:net): `cut()` destroys every connection through it and refuses
 * new ones, as a broken network would.
 */
export class CuttableProxy {
  private readonly sockets = new Set<Socket>();
  private cutOff = false;
  private constructor(private readonly server: Server) {}

  static async open(port: number, target: { host: string; port: number }): Promise<CuttableProxy> {
    const server = createServer();
    const proxy = new CuttableProxy(server);
    server.on('connection', (client) => proxy.accept(client, target));
    await new Promise<void>((res, rej) => server.once('error', rej).listen(port, '127.0.0.1', () => res()));
    return proxy;
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    if (this.cutOff) return void client.destroy();
    const upstream = new Socket();
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
      s.on('error', () => undefined);
    }
    upstream.connect(target.port, target.host);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  cut(): void {
    this.cutOff = true;
    for (const s of this.sockets) s.destroy();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((res) => this.server.close(() => res()));
  }
}

/** Ends a host: SIGKILL (and SIGCONT, should it be stopped) unless it exited. */
export async function killHost(host: ServedHost): Promise<void> {
  if (host.child.exitCode === null && host.child.signalCode === null) {
    host.child.kill('SIGCONT');
    host.child.kill('SIGKILL');
  }
  await host.exited;
}
