import { request as httpRequest } from 'node:http';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../engine/index';
import { OPERATION_NAMES, STUDIO_API, type OperationName } from '../../shared/api/contract';
import { pathParams } from '../../shared/api/http-routes';
import { identifierProblem } from '../../shared/workflow/identifier';
import { parseHostSettings } from '../host/host-settings';
import { StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from './http-server';

/**
 * SEC-03 traversal proof: every id an operation takes (sessions, workflows, executions, nodes, versions,
 * secret and key names), set to a traversal value and sent over REST, is refused with BAD_INPUT naming that
 * field — by the contract's input schema, before the operation's handler (and so any store) runs — and no
 * file appears or changes inside or beside the data folder.
 */

/** The traversal values, as the server receives them (after the transport's one URL decoding). */
export const TRAVERSAL_IDS = [
  '../',
  '../../../../etc/passwd',
  '..\\',
  '..\\..\\Windows\\win.ini',
  '/etc/passwd',
  '/',
  'C:\\Windows\\win.ini',
  '\\\\server\\share',
  '%2e%2e',
  '%2e%2e%2fsecret.txt',
  '..%2f..%2fsecret.txt',
  '%2e',
  'a\u0000b',
  '\u0000',
  'ok\u0000/../x',
  '.',
  '..',
  'ok/../../x',
] as const;

/** Fields that name something (keys named like this in any operation's input are ids). */
const ID_KEYS = new Set(['session', 'workflowId', 'executionId', 'nodeId', 'name', 'version', 'from', 'to', 'newSession']);
/** Ids inside nested input (definitions, commands, key sessions), per operation. */
const NESTED_IDS: Partial<Record<OperationName, string[]>> = {
  'workflows.save': ['definition.workflowId', 'definition.nodes.0.nodeId', 'definition.edges.0.source'],
  'sessions.applyConfig': ['workflows.0.workflowId', 'workflows.0.nodes.0.nodeId'],
  'apiKeys.create': ['sessions.0'],
  'control.send': ['command.nodeId'],
  'runs.start': ['debug.breakpoints.0.nodeId'],
  'breakpoints.set': ['breakpoints.0.nodeId'],
};

const VERSION = 'a'.repeat(64);
const SAMPLE: Record<string, unknown> = {
  session: 'default',
  workflowId: 'hello',
  executionId: 'run-1',
  nodeId: 'o',
  name: 'K1',
  version: VERSION,
  from: VERSION,
  to: VERSION,
  newSession: 'other',
};
const DEFINITION = {
  workflowId: 'hello',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    { nodeId: 'o', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [{ source: 't', target: 'o' }],
};
/** Non-id fields an input needs to be valid. */
const EXTRA: Partial<Record<OperationName, Record<string, unknown>>> = {
  'workflows.save': { definition: DEFINITION },
  'sessions.applyConfig': { workflows: [DEFINITION] },
  'apiKeys.create': { role: 'VIEWER', sessions: ['default'] },
  'secrets.set': { value: 'v' },
  'control.send': { command: { type: 'PauseNode', nodeId: 'o' } },
  'runs.start': { payload: {}, debug: { breakpoints: [{ nodeId: 'o', path: 'payload.x', equals: '1' }] } },
  'runs.setPriority': { priority: 1 },
  'signals.send': { decision: 'REJECT' },
  'supervisors.setRules': { rules: [] },
  'plugins.control': { kind: 'heartbeat' },
  'breakpoints.set': { breakpoints: [{ nodeId: 'o', enabled: true, condition: null }] },
};

function shapeKeys(operation: OperationName): string[] {
  const shape = (STUDIO_API[operation].input as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

/** Every (operation, field path) that takes an id. */
export function idFields(): Array<{ operation: OperationName; field: string }> {
  const out: Array<{ operation: OperationName; field: string }> = [];
  for (const operation of OPERATION_NAMES) {
    for (const key of shapeKeys(operation)) if (ID_KEYS.has(key)) out.push({ operation, field: key });
    for (const field of NESTED_IDS[operation] ?? []) out.push({ operation, field });
  }
  return out;
}

function baseInput(operation: OperationName): Record<string, unknown> {
  const input: Record<string, unknown> = structuredClone(EXTRA[operation] ?? {});
  for (const key of shapeKeys(operation)) if (ID_KEYS.has(key) && !(key in input)) input[key] = SAMPLE[key];
  return input;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node: Record<string, unknown> = target;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  node[parts.at(-1)!] = value;
}

/** A path segment the server decodes back to exactly `value` (dots escaped so no client or router resolves `.`/`..`). */
function segment(value: string): string {
  return encodeURIComponent(value).replace(/\./g, '%2E');
}

/** The REST request for an input, like shared/api/http-routes' toHttpRequest but with dot-safe path segments. */
function request(
  operation: OperationName,
  input: Record<string, unknown>,
): { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: Record<string, unknown> } {
  const { method, path } = STUDIO_API[operation].http;
  const rest = { ...input };
  const url = path.replace(/:([A-Za-z][A-Za-z0-9]*)/g, (_m, name: string) => {
    const value = String(rest[name]);
    delete rest[name];
    return segment(value);
  });
  if (method !== 'GET') return { method, url, payload: rest };
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(rest)) query.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  const qs = query.toString();
  return { method, url: qs ? `${url}?${qs}` : url };
}

/** Every file and folder under `dir`, with size and modification time. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      const stat = statSync(path);
      out.set(relative(dir, path), `${entry.isDirectory() ? 'dir' : stat.size}:${stat.mtimeMs}`);
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out;
}

let root: string;
let dataDir: string;
let host: StudioHost;
let server: StudioHttpServer;
let port: number;

/**
 * Sends a request over a real socket with the path exactly as written: node:http does not resolve `.`/`..`
 * segments the way fetch and URL-based clients do (a raw client, or an attacker, need not either).
 */
function raw(method: string, path: string, payload?: unknown): Promise<{ statusCode: number; body: string; json(): unknown }> {
  return new Promise((resolve, reject) => {
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { host: '127.0.0.1:4310', ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body: text, json: () => JSON.parse(text) as unknown }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'yukta-traversal-'));
  dataDir = join(root, 'data');
  writeFileSync(join(root, 'secret.txt'), 'outside the data folder');
  host = new StudioHost({
    dataDir,
    store: 'file',
    settings: parseHostSettings({}),
    env: {},
    engine: { clock: new ManualClock(0), scheduler: { limits: { shutdownTimeoutMs: 0 } } },
  });
  server = await createHttpServer({ host, bind: { host: '127.0.0.1', port: 0 } });
  port = (await server.listen()).port;
  const saved = await server.app.inject({ method: 'POST', url: '/api/workflows', headers: { host: '127.0.0.1:4310' }, payload: { definition: DEFINITION } });
  expect(saved.statusCode, saved.body).toBe(200);
});

afterAll(async () => {
  await server.close();
  await host.close();
  rmSync(root, { recursive: true, force: true });
});

describe('SEC-03 traversal ids over REST', () => {
  it('the identifier rule refuses every traversal value', () => {
    for (const value of TRAVERSAL_IDS) expect(identifierProblem(value), JSON.stringify(value)).not.toBeNull();
  });

  it('covers every operation of the contract that takes an id', () => {
    const covered = new Set(idFields().map((f) => f.operation));
    const withIds = OPERATION_NAMES.filter((op) => shapeKeys(op).some((k) => ID_KEYS.has(k)) || pathParams(op).length > 0);
    expect([...covered].sort()).toEqual([...new Set([...withIds, ...Object.keys(NESTED_IDS)])].sort());
    for (const op of OPERATION_NAMES) for (const p of pathParams(op)) expect(ID_KEYS.has(p), `${op} :${p}`).toBe(true);
  });

  it('every id field × every traversal value: 100 % refused with BAD_INPUT naming the field, no file touched', async () => {
    // Each base input is accepted by its schema, so the traversal value is the only problem.
    for (const { operation } of idFields()) {
      const parsed = STUDIO_API[operation].input.safeParse(baseInput(operation));
      expect(parsed.success, `${operation}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
    const before = snapshot(root);
    let cases = 0;
    const misses: string[] = [];
    for (const { operation, field } of idFields()) {
      for (const value of TRAVERSAL_IDS) {
        const input = baseInput(operation);
        setPath(input, field, value);
        const req = request(operation, input);
        const res = await raw(req.method, req.url, req.payload).catch((e: Error) => ({
          statusCode: -1,
          body: `${e.message} ${req.method} ${req.url}`,
          json: () => ({}),
        }));
        cases += 1;
        const body = res.json() as { error?: { code?: string; path?: string } };
        if (res.statusCode !== 400 || body.error?.code !== 'BAD_INPUT' || body.error?.path !== field) {
          misses.push(`${operation} ${field}=${JSON.stringify(value)} → ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
    }
    expect(misses).toEqual([]);
    expect(snapshot(root)).toEqual(before);
    const operations = new Set(idFields().map((f) => f.operation)).size;
    console.log(
      `SEC-03 traversal: ${cases}/${cases} refused with BAD_INPUT (${idFields().length} id fields of ${operations} operations × ${TRAVERSAL_IDS.length} values); files inside and beside the data folder unchanged`,
    );
  });

  it('raw (not re-encoded) escapes in path segments are decoded once and refused too', async () => {
    const before = snapshot(root);
    for (const escaped of ['%2e%2e', '%2E%2E%2Fsecret.txt', '%2e', '..%2F..%2Fsecret.txt', '%00', '%5c..%5c', '%252e%252e']) {
      for (const url of [`/api/workflows/default/${escaped}`, `/api/workflows/${escaped}/hello`, `/api/executions/${escaped}`]) {
        const res = await raw('GET', url);
        expect(res.statusCode, `${url} ${res.body}`).toBe(400);
        expect((res.json() as { error: { code: string } }).error.code).toBe('BAD_INPUT');
      }
    }
    expect(snapshot(root)).toEqual(before);
  });
});
