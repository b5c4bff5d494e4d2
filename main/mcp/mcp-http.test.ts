import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ControlAuditPage } from '../../shared/api/control.schema';
import { parseHostSettings } from '../host/host-settings';
import { StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from '../http/http-server';
import { McpHttpSessions } from './mcp-http-route';
import {
  approveThroughMcp,
  badInputNamesTheField,
  expectExposedTools,
  GREETER,
  saveStartWaitRead,
  toolError,
  value,
  viewerIsRefusedAStart,
} from './mcp-test-support';

const KEYS = { viewer: 'viewer-key-0123456789', operator: 'operator-key-0123456789', admin: 'admin-key-0123456789', team: 'team-key-0123456789abc' };
const KEYED = {
  'yukta.api-keys': [
    { name: 'viewer', key: KEYS.viewer, role: 'VIEWER' },
    { name: 'ops', key: KEYS.operator, role: 'OPERATOR' },
    { name: 'admin', key: KEYS.admin, role: 'ADMIN' },
    { name: 'team', key: KEYS.team, role: 'OPERATOR', sessions: ['team'] },
  ],
};

const open: Array<{ host: StudioHost; server: StudioHttpServer; clients: Client[] }> = [];

afterEach(async () => {
  for (const { host, server, clients } of open.splice(0)) {
    for (const c of clients) await c.close();
    await server.close();
    await host.close();
  }
});

/** A real listening serve-mode server (memory store, port 0) and SDK clients for it. */
async function serve(settings: Record<string, unknown> = {}) {
  const host = new StudioHost({ settings: parseHostSettings(settings), env: {} });
  const server = await createHttpServer({ host, bind: { port: 0 } });
  const { url } = await server.listen();
  const entry = { host, server, clients: [] as Client[] };
  open.push(entry);
  const connect = async (headers: Record<string, string> = {}): Promise<Client> => {
    const client = new Client({ name: 'ext-04-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers } }));
    entry.clients.push(client);
    return client;
  };
  return { host, url, connect };
}

/** POSTs an initialize naming `host` in the Host header (fetch may not set Host; node:http may). */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(INITIALIZE);
    const req = request(`${url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, host, 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('EXT-04 MCP over streamable HTTP (/mcp in serve mode, official SDK client)', () => {
  it('offers the exposed operations as tools; saves, starts, waits for and reads a run as a resource', async () => {
    const { connect } = await serve();
    const client = await connect();
    const manifest = z.object({ version: z.string() }).parse(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')));
    expect(client.getServerVersion()).toMatchObject({ name: 'yukta-studio', version: manifest.version });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: { subscribe: true } });
    await expectExposedTools(client);
    await saveStartWaitRead(client);
  });

  it('a run at WAIT_FOR_SIGNAL is in approvals, is approved through MCP and ends SUCCESS tagged; subscribers get resource updates', async () => {
    const { connect } = await serve();
    await approveThroughMcp(await connect());
  });

  it('bad input is a tool error naming the code and the field', async () => {
    const { connect } = await serve();
    await badInputNamesTheField(await connect());
  });
});

describe('EXT-04 MCP over HTTP behind the API keys and roles of SEC-01', () => {
  it('refuses a VIEWER key a start naming the role, records an OPERATOR key as actor key:<name>, and wants a key', async () => {
    const { connect } = await serve(KEYED);
    const admin = await connect({ authorization: `Bearer ${KEYS.admin}` });
    await value(
      admin,
      'workflows.save',
      {
        definition: {
          workflowId: 'greeter',
          nodes: [
            { nodeId: 's', type: 'API_TRIGGER' },
            { nodeId: 'o', type: 'CONSOLE_TERMINAL' },
          ],
          edges: [{ source: 's', target: 'o' }],
        },
      },
      z.object({ workflowId: z.string() }),
    );
    await viewerIsRefusedAStart(await connect({ 'x-api-key': KEYS.viewer }), 'key:viewer');

    const operator = await connect({ authorization: `Bearer ${KEYS.operator}` });
    const executionId = await approveThroughMcp(operator, admin);
    const audit = await value(admin, 'control.audit', { executionId }, ControlAuditPage);
    expect(audit.entries.map((e) => [e.actor, e.type, e.status])).toContainEqual(['key:ops', 'CONTROL_APPLIED', 'Signal']);

    await expect(connect()).rejects.toThrow(/UNAUTHORIZED.*an API key is required/);
    await expect(connect({ authorization: 'Bearer not-a-key-0123456789' })).rejects.toThrow(/UNAUTHORIZED.*the API key is not valid/);
  });

  it("a key limited to a session lists, reads and follows only that session's workflows and runs", async () => {
    const { connect } = await serve(KEYED);
    const admin = await connect({ authorization: `Bearer ${KEYS.admin}` });
    await value(admin, 'workflows.save', { definition: GREETER }, z.object({ workflowId: z.string() }));
    await value(admin, 'workflows.save', { session: 'team', definition: GREETER }, z.object({ workflowId: z.string() }));
    const other = await value(admin, 'runs.start', { workflowId: 'greeter', payload: { name: 'x' } }, z.object({ executionId: z.string() }));
    const team = await connect({ authorization: `Bearer ${KEYS.team}` });
    const own = await value(team, 'runs.start', { session: 'team', workflowId: 'greeter', payload: { name: 'y' } }, z.object({ executionId: z.string() }));
    const uris = (await team.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(['yukta://workflows/team/greeter', `yukta://runs/${own.executionId}`]));
    expect(uris).not.toContain('yukta://workflows/default/greeter');
    expect(uris).not.toContain(`yukta://runs/${other.executionId}`);
    await expect(team.readResource({ uri: `yukta://runs/${other.executionId}` })).rejects.toMatchObject({ code: -32002 });
    await expect(team.subscribeResource({ uri: `yukta://runs/${other.executionId}` })).rejects.toMatchObject({ code: -32002 });
    const refused = await toolError(team, 'runs.start', { workflowId: 'greeter' });
    expect(refused.error.code).toBe('FORBIDDEN');
  });

  it('keeps a session to the key that opened it: another key on its session id is refused', async () => {
    const { url } = await serve(KEYED);
    const init = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${KEYS.viewer}` },
      body: JSON.stringify(INITIALIZE),
    });
    expect(init.status).toBe(200);
    const sessionId = init.headers.get('mcp-session-id');
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await init.body?.cancel();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const hijacked = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId!, authorization: `Bearer ${KEYS.admin}` },
      body: JSON.stringify(list),
    });
    expect(hijacked.status).toBe(403);
    expect(await hijacked.json()).toMatchObject({ error: { code: 'FORBIDDEN', message: 'this MCP session belongs to key:viewer, not key:admin' } });
    const unknown = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': 'no-such-session', authorization: `Bearer ${KEYS.viewer}` },
      body: JSON.stringify(list),
    });
    expect(unknown.status).toBe(404);
  });
});

describe('EXT-04 /mcp keeps the Host/Origin rules of SEC-01 while no key is set', () => {
  it('refuses a foreign Origin (POST and GET) and a foreign Host with 403, and accepts same-origin and Origin-less requests', async () => {
    const { url, connect } = await serve();
    const post = (headers: Record<string, string>) =>
      fetch(`${url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(INITIALIZE) });
    const foreign = await post({ origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: { code: 'FORBIDDEN', message: expect.stringContaining('Origin http://evil.example') } });
    const stream = await fetch(`${url}/mcp`, { headers: { accept: 'text/event-stream', origin: 'http://evil.example' } });
    expect(stream.status).toBe(403);
    expect(await statusWithHost(url, 'evil.example')).toBe(403); // a DNS-rebinding page names its own host
    expect(await statusWithHost(url, new URL(url).host)).toBe(200);
    const same = await post({ origin: url });
    expect(same.status).toBe(200);
    await same.body?.cancel();
    // The SDK client itself, from a foreign page's origin, cannot even initialize.
    await expect(connect({ origin: 'http://evil.example' })).rejects.toThrow(/FORBIDDEN.*cross-origin POST refused/);
    await expectExposedTools(await connect());
  });
});

describe('EXT-04 MCP sessions over HTTP are bounded', () => {
  it('opening one more than the cap closes the session idle longest', async () => {
    const { host } = await serve();
    const sessions = new McpHttpSessions(host, 2);
    const caller = { actor: 'http:local', role: 'ADMIN' as const };
    const first = await sessions.open(caller);
    const second = await sessions.open(caller);
    second.session.state.lastSeen = first.session.state.lastSeen + 1;
    const third = await sessions.open(caller);
    expect(sessions.size).toBe(2);
    expect(sessions.get(first.id)).toBeUndefined();
    expect([sessions.get(second.id), sessions.get(third.id)]).toEqual([second.session, third.session]);
    await sessions.closeAll();
    expect(sessions.size).toBe(0);
  });
});
