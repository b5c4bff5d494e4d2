import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { WorkflowDefinitionInput } from '../../../../shared/workflow/definition.schema';
import { chain, harness, type Harness } from '../../../test-support/engine-harness';
import { FAKE_MCP_STDIO_SERVER, startFakeMcpHttpServer, type FakeMcpHttpServer } from '../../../test-support/fake-mcp-servers';
import { definePlugin, type Plugin } from '../../contract';

const NODE = process.execPath;
const CANARY = 'mcp-canary-5b8e2d-token';
let http: FakeMcpHttpServer;

beforeAll(async () => {
  http = await startFakeMcpHttpServer();
});
afterAll(() => http.close());

function sink(type = 'SINK') {
  const seen: Array<{ payload: unknown; metadata: Record<string, string> }> = [];
  const plugin = definePlugin({
    type,
    kind: 'terminal',
    title: type,
    description: '',
    configSchema: z.record(z.string(), z.unknown()),
    defaultConfig: {},
    outputs: [],
    process: (m) => void seen.push({ payload: m.payload, metadata: { ...m.metadata } }),
  }) as unknown as Plugin<never>;
  return { plugin, seen };
}

function setup(processEnabled = true, allowPrivate = true) {
  const out = sink();
  const h = harness([out.plugin], {
    security: { env: { YUKTA_SECRET_MCP: CANARY }, settings: { http: { allowPrivate }, process: { enabled: processEnabled, allowedCommands: [NODE] } } },
  });
  return { h, out };
}

const stdioServer = (env: Record<string, string> = {}) => ({ transport: 'stdio', command: NODE, args: [FAKE_MCP_STDIO_SERVER], env });
const httpServer = () => ({ transport: 'http', url: http.url, headers: { Authorization: 'Bearer decrypted:mcp' } });

function nodeOf(h: Harness, id: string, nodeId: string) {
  return h.engine.getRun(id).nodes.find((n) => n.nodeId === nodeId)!;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for a real process to start or end (outside the engine, so not on its clock). */
async function until(done: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(done()).toBe(true), { timeout: 10_000, interval: 20 });
}

async function finish(h: Harness, id: string): Promise<string> {
  for (let i = 0; i < 200 && !['SUCCESS', 'FAILURE', 'CANCELLED', 'TIMED_OUT'].includes(h.engine.getRun(id).status); i++) await h.clock.advanceAsync(250);
  return h.engine.waitForRun(id);
}

describe('EXT-01 MCP_TOOL_CALL over stdio', () => {
  it('starts the server with node (allow-listed), calls a tool with templated typed arguments, emits the result', async () => {
    const { h, out } = setup();
    const node = { nodeId: 'mcp', type: 'MCP_TOOL_CALL', config: { server: stdioServer(), tool: 'add', arguments: { a: '${payload.x:int}', b: 5 } } };
    const id = await h.run(chain('stdio', [node], 'SINK'), { x: '37' });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(out.seen).toEqual([
      {
        payload: { tool: 'add', text: '42', content: [{ type: 'text', text: '42' }], structuredContent: { sum: 42 }, isError: false },
        metadata: expect.objectContaining({ 'mcp.tool': 'add', 'mcp.transport': 'stdio', 'mcp.isError': 'false', 'budget.toolCalls': '1' }),
      },
    ]);
  }, 20_000);

  it('passes a secret only in the server environment; a tool error fails the call (or is emitted with failOnToolError false)', async () => {
    const { h, out } = setup();
    const who = await h.run(
      chain('env', [{ nodeId: 'mcp', type: 'MCP_TOOL_CALL', config: { server: stdioServer({ MCP_USER: 'decrypted:mcp' }), tool: 'whoami' } }], 'SINK'),
    );
    expect(await h.engine.waitForRun(who)).toBe('SUCCESS');
    // The server saw the value; the output (which may be recorded) and the events show only the mask.
    expect(JSON.stringify(out.seen)).not.toContain(CANARY);
    expect(JSON.stringify(h.events)).not.toContain(CANARY);
    expect((out.seen[0]!.payload as { text: string }).text).not.toBe('(unset)');
    const failed = await h.run(chain('fail', [{ nodeId: 'mcp', type: 'MCP_TOOL_CALL', config: { server: stdioServer(), tool: 'fail' } }], 'SINK'));
    expect(await h.engine.waitForRun(failed)).toBe('FAILURE');
    expect(nodeOf(h, failed, 'mcp').error).toMatchObject({ name: 'McpToolError', code: 'MCP_TOOL_ERROR', message: expect.stringContaining('the tool broke') });
    const emitted = await h.run(
      chain('emit', [{ nodeId: 'mcp', type: 'MCP_TOOL_CALL', config: { server: stdioServer(), tool: 'fail', failOnToolError: false } }], 'SINK'),
    );
    expect(await h.engine.waitForRun(emitted)).toBe('SUCCESS');
    expect(out.seen.at(-1)!.payload).toMatchObject({ isError: true, text: 'the tool broke' });
  }, 30_000);

  it('a call past its timeoutMs (virtual time) fails retryably and the server process is killed', async () => {
    const { h } = setup();
    const pidFile = join(mkdtempSync(join(tmpdir(), 'mcp-')), 'pid');
    const node = { nodeId: 'mcp', type: 'MCP_TOOL_CALL', config: { server: stdioServer({ MCP_PID_FILE: pidFile }), tool: 'hang', timeoutMs: 5_000 } };
    const id = await h.run(chain('hang', [node], 'SINK'));
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').length > 0);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);
    await h.clock.advanceAsync(5_000);
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    expect(nodeOf(h, id, 'mcp').error).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    await until(() => !alive(pid));
  }, 20_000);

  it('stdio servers are processes: refused unless yukta.process.enabled and the command is allow-listed', async () => {
    const off = setup(false).h;
    const refused = await off.run(chain('off', [{ nodeId: 'mcp', type: 'MCP_TOOL_CALL', config: { server: stdioServer(), tool: 'add' } }], 'SINK'));
    expect(await off.engine.waitForRun(refused)).toBe('FAILURE');
    expect(nodeOf(off, refused, 'mcp').error).toMatchObject({ name: 'BadInputError', code: 'PROCESS_DISABLED' });
    const { h } = setup();
    const other = await h.run(
      chain(
        'other',
        [{ nodeId: 'mcp', type: 'MCP_TOOL_CALL', config: { server: { transport: 'stdio', command: '/bin/sh', args: ['-c', 'echo'] }, tool: 'add' } }],
        'SINK',
      ),
    );
    expect(await h.engine.waitForRun(other)).toBe('FAILURE');
    expect(nodeOf(h, other, 'mcp').error).toMatchObject({ code: 'COMMAND_NOT_ALLOWED' });
  });
});

describe('EXT-01 MCP_TOOL_CALL over streamable HTTP', () => {
  it('calls a tool through the guarded client with a secret header', async () => {
    const { h, out } = setup();
    const id = await h.run(
      chain(
        'http',
        [{ nodeId: 'mcp', type: 'MCP_TOOL_CALL', config: { server: httpServer(), tool: 'echo', arguments: { text: 'hi ${payload.name}' } } }],
        'SINK',
      ),
      { name: 'Ada' },
    );
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(http.calls.at(-1)).toEqual({ name: 'echo', args: { text: 'hi Ada' } });
    expect(http.requests.at(-1)!.authorization).toBe(`Bearer ${CANARY}`);
    expect(out.seen[0]).toMatchObject({ payload: { tool: 'echo', text: 'hi Ada', isError: false }, metadata: { 'mcp.transport': 'http' } });
    expect(JSON.stringify(h.events)).not.toContain(CANARY);
  });

  it('retries a server error (503) under the node policy; a 404 endpoint fails as bad input; a private address is refused without allow-private', async () => {
    const { h } = setup();
    http.failNext(503);
    const retried = await h.run(
      chain(
        'retry',
        [
          {
            nodeId: 'mcp',
            type: 'MCP_TOOL_CALL',
            config: { server: httpServer(), tool: 'add', arguments: { a: 1, b: 2 }, engine: { retry: { maxAttempts: 3, backoffMs: 100 } } },
          },
        ],
        'SINK',
      ),
    );
    expect(await finish(h, retried)).toBe('SUCCESS');
    expect(nodeOf(h, retried, 'mcp').counts.retried).toBe(1);
    const missing = await h.run(
      chain(
        'missing',
        [
          {
            nodeId: 'mcp',
            type: 'MCP_TOOL_CALL',
            config: { server: { transport: 'http', url: http.url.replace('/mcp', '/nope') }, tool: 'add', engine: { retry: { maxAttempts: 3 } } },
          },
        ],
        'SINK',
      ),
    );
    expect(await finish(h, missing)).toBe('FAILURE');
    expect(nodeOf(h, missing, 'mcp').error).toMatchObject({ name: 'BadInputError', code: 'MCP_HTTP_405' });
    const guarded = setup(true, false).h;
    const blocked = await guarded.run(chain('ssrf', [{ nodeId: 'mcp', type: 'MCP_TOOL_CALL', config: { server: httpServer(), tool: 'add' } }], 'SINK'));
    expect(await guarded.engine.waitForRun(blocked)).toBe('FAILURE');
    expect(nodeOf(guarded, blocked, 'mcp').error).toMatchObject({ code: 'SSRF_BLOCKED' });
  });
});

describe('EXT-03 MCP budgets', () => {
  const call = (nodeId: string, budget: Record<string, unknown>, engine?: Record<string, unknown>) => ({
    nodeId,
    type: 'MCP_TOOL_CALL',
    config: { server: httpServer(), tool: 'add', arguments: { a: 1, b: 1 }, budget, ...(engine ? { engine } : {}) },
  });

  it('maxCalls counts tool calls of the run across nodes: the next call fails like a failed call; an agent is counted apart', async () => {
    const { h, out } = setup();
    const def = chain(
      'budget',
      [
        call('one', { maxCalls: 2 }),
        call('two', { maxCalls: 2 }),
        call('agent', { maxCalls: 1, agent: 'helper' }),
        call('three', { maxCalls: 2 }, { onError: 'CONTINUE' }),
      ],
      'SINK',
    );
    const before = http.calls.length;
    const id = await h.run(def);
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(http.calls.length - before).toBe(3);
    expect(nodeOf(h, id, 'three').counts.failed).toBe(1);
    expect(out.seen).toEqual([]);
  });

  it('hardStop ends the run at the limit', async () => {
    const { h } = setup();
    const def: WorkflowDefinitionInput = chain(
      'hard',
      [call('one', { maxCalls: 1, hardStop: true }), call('two', { maxCalls: 1, hardStop: true }, { onError: 'ROUTE' })],
      'SINK',
    );
    const id = await h.run(def);
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    expect(h.engine.getRun(id).error).toMatchObject({ code: 'RUN_ABORTED', message: expect.stringContaining('1 of 1 tool calls') });
    expect(h.statuses(id)).toMatchObject({ one: 'SUCCESS', two: 'FAILURE' });
  });
});
