import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../engine/index';
import { tempDataDir } from '../host/host-test-support';
import { loadSettings } from '../host/loaded-settings';
import { StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from './http-server';

const open: Array<{ host: StudioHost; server: StudioHttpServer }> = [];
afterEach(async () => {
  for (const { host, server } of open.splice(0)) {
    await server.close();
    await host.close();
  }
});

const KEYS = [
  { name: 'admin', key: 'admin-key-0123456789abcdef', role: 'ADMIN' },
  { name: 'viewer', key: 'viewer-key-0123456789abcdef', role: 'VIEWER' },
];

async function serve() {
  const dataDir = await tempDataDir();
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ 'yukta.api-keys': KEYS, 'yukta.execution.queue-capacity': 50 }));
  const host = new StudioHost({ dataDir, store: 'memory', settings: loadSettings({ dataDir, env: {} }), env: {}, engine: { clock: new ManualClock(0) } });
  const server = await createHttpServer({ host, bind: { port: 0 } });
  open.push({ host, server });
  const { url } = await server.listen();
  const call = async (method: 'GET' | 'POST', key: string, body?: unknown) => {
    const res = await fetch(`${url}/api/settings`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { dataDir, call };
}

describe('CFG-01 GET and POST /api/settings', () => {
  it('reads settings as VIEWER without any key in clear; changes them as ADMIN only', async () => {
    const { dataDir, call } = await serve();
    const read = await call('GET', KEYS[1]!.key);
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain('0123456789abcdef');
    const settings = read.body.settings as Array<{ key: string; value: unknown; source: { kind: string } }>;
    expect(settings.find((s) => s.key === 'yukta.execution.queue-capacity')).toMatchObject({ value: 50, source: { kind: 'file' } });

    expect((await call('POST', KEYS[1]!.key, { key: 'yukta.execution.queue-capacity', value: 10 })).status).toBe(403);
    const live = await call('POST', KEYS[0]!.key, { key: 'yukta.execution.queue-capacity', value: 10 });
    expect(live).toMatchObject({ status: 200, body: { applied: 'now', setting: { value: 10, source: { kind: 'log' } } } });
    const later = await call('POST', KEYS[0]!.key, { key: 'yukta.supervisor.dry-run', value: true });
    expect(later).toMatchObject({ status: 200, body: { applied: 'after-restart', setting: { value: false, pending: { value: true } } } });
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))['yukta.supervisor.dry-run']).toBe(true);
    const bad = await call('POST', KEYS[0]!.key, { key: 'yukta.supervisor.dry-runn', value: true });
    expect(bad).toMatchObject({
      status: 400,
      body: { error: { code: 'BAD_INPUT', path: 'key', message: expect.stringContaining('did you mean yukta.supervisor.dry-run?') } },
    });
  });
});
