import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../engine/test-support/postgres-test-database';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** In the URL's password: the test server trusts loopback, so any password connects; none may show anywhere. */
const CANARY = 'pw-canary-7d41c9e2a0';
const folders: string[] = [];
afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

function dataFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'yukta-serve-pg-'));
  folders.push(dir);
  return dir;
}

/** The test database's URL with the canary as password, and a schema of its own. */
async function database(): Promise<{ url: string; schema: string; plain: string }> {
  const db = await testDatabase();
  const url = new URL(db.url);
  url.password = CANARY;
  return { url: url.toString(), schema: await db.freshSchema(), plain: db.url };
}

interface Served {
  child: ChildProcess;
  url: string;
  output: string[];
  exited: Promise<number | null>;
}

/** `yukta serve --store postgres` as a real child process; resolves once it printed its store line. */
async function serve(dataDir: string, env: Record<string, string>): Promise<Served> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'yukta.mjs'), 'serve', '--store', 'postgres', '--port', '0', '--data', dataDir], {
    env: { ...process.env, YUKTA_CLI_FROM_SOURCE: '1', ...env },
  });
  const exited = new Promise<number | null>((res) => child.on('close', res));
  const output: string[] = [];
  child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
  let url: string | undefined;
  for await (const line of createInterface({ input: child.stdout! })) {
    output.push(line);
    url ??= /^Yukta Studio serving at (http:\/\/127\.0\.0\.1:\d+)$/.exec(line)?.[1];
    if (line.startsWith('Store: ')) break;
  }
  if (!url) throw new Error(`serve did not start: ${output.join('\n')}`);
  return { child, url, output, exited };
}

const seen: string[] = [];
async function api(
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
  seen.push(text);
  return { status: res.status, json: JSON.parse(text) as Record<string, unknown> };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const WORKFLOW = {
  workflowId: 'kept',
  nodes: [
    { nodeId: 's', type: 'API_TRIGGER' },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [{ source: 's', target: 'out' }],
};

describe('DUR-04 yukta serve --store postgres (a real child process on a real server)', () => {
  it('serves from the database, acknowledges a start only once committed, finds it again after a restart; the URL password shows nowhere', async () => {
    const { url, schema, plain } = await database();
    const dataDir = dataFolder();
    const env = { YUKTA_POSTGRES_URL: url, YUKTA_POSTGRES_SCHEMA: schema };
    const first = await serve(dataDir, env);
    expect(first.output.at(-1)).toMatch(new RegExp(`^Store: PostgreSQL .* at yukta@127\\.0\\.0\\.1:\\d+/yukta_test_\\w+, schema ${schema}$`));
    expect((await api(first.url, 'POST', '/api/workflows', { definition: WORKFLOW })).status).toBe(200);
    const started = await api(first.url, 'POST', '/api/workflow/start', { workflowId: 'kept', payload: { n: 1 } }, { 'idempotency-key': 'k1' });
    expect(started.status).toBe(200);
    const id = String(started.json.executionId);
    // The answer came after the commit: the start is in the database now, read by another connection.
    const probe = new pg.Client({ connectionString: plain, options: `-c search_path=${schema}` });
    await probe.connect();
    try {
      const rows = (await probe.query<{ type: string }>('SELECT type FROM execution_log WHERE run_id = $1 ORDER BY seq', [id])).rows;
      expect(rows[0]).toEqual({ type: 'RUN_STARTED' });
      expect((await probe.query<{ run_id: string }>("SELECT run_id FROM execution_log WHERE type = 'IDEMPOTENCY_KEY'")).rows.map((r) => r.run_id)).toContain(
        id,
      );
    } finally {
      await probe.end();
    }
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await serve(dataDir, env);
    const again = await api(second.url, 'POST', '/api/workflow/start', { workflowId: 'kept', payload: { n: 1 } }, { 'idempotency-key': 'k1' });
    expect(again.json.executionId).toBe(id);
    expect((await api(second.url, 'GET', `/api/executions/${id}`)).status).toBe(200);
    expect(((await api(second.url, 'GET', '/api/workflows')).json as unknown as Array<{ workflowId: string }>).map((w) => w.workflowId)).toEqual(['kept']);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const everything = [...first.output, ...second.output, ...seen, ...filesUnder(dataDir).map((f) => readFileSync(f, 'utf8'))].join('\n');
    expect(everything.split(CANARY).length - 1).toBe(0);
  });

  it('reads the URL from a secret (decrypted:<name> in settings.json, the value in YUKTA_SECRET_<NAME>)', async () => {
    const { url, schema } = await database();
    const dataDir = dataFolder();
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ 'yukta.postgres.url': 'decrypted:pg', 'yukta.postgres.schema': schema }));
    const served = await serve(dataDir, { YUKTA_SECRET_PG: url });
    expect((await api(served.url, 'POST', '/api/workflows', { definition: WORKFLOW })).status).toBe(200);
    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
    expect(served.output.join('\n')).not.toContain(CANARY);
  });

  it('refuses to start without a URL, with a secret not set, or with a server it cannot reach: exit 1, the setting named, no password', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{}, /the postgres store needs yukta\.postgres\.url: set YUKTA_POSTGRES_URL=/],
      [{ YUKTA_POSTGRES_URL: 'decrypted:missing' }, /yukta\.postgres\.url: the secret "missing" is not set .*YUKTA_SECRET_MISSING/],
      [
        { YUKTA_POSTGRES_URL: `postgres://yukta:${CANARY}@127.0.0.1:1/nowhere` },
        /cannot open the postgres store: cannot open the PostgreSQL database yukta@127\.0\.0\.1:1\/nowhere: /,
      ],
    ];
    for (const [env, message] of cases) {
      const child = spawn(process.execPath, [join(ROOT, 'bin', 'yukta.mjs'), 'serve', '--store', 'postgres', '--port', '0', '--data', dataFolder()], {
        env: { ...process.env, YUKTA_POSTGRES_URL: '', YUKTA_CLI_FROM_SOURCE: '1', ...env },
      });
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d.toString()));
      child.stderr.on('data', (d: Buffer) => (text += d.toString()));
      const code = await new Promise<number | null>((res) => child.on('close', res));
      expect(code, text).toBe(1);
      expect(text).toMatch(message);
      expect(text).not.toContain(CANARY);
    }
  });
});
