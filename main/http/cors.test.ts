import { afterEach, describe, expect, it } from 'vitest';
import { parseHostSettings } from '../host/host-settings';
import { StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from './http-server';

const KEY = 'team-server-key-0123456789';
const STUDIO = 'http://studio.example:4310';
const open: Array<{ host: StudioHost; server: StudioHttpServer }> = [];
afterEach(async () => {
  for (const { host, server } of open.splice(0)) {
    await server.close();
    await host.close();
  }
});

async function serve(settings: Record<string, unknown>) {
  const host = new StudioHost({ settings: parseHostSettings(settings), env: {} });
  const server = await createHttpServer({ host, bind: { port: 0 } });
  open.push({ host, server });
  return server;
}

const preflight = { 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization', host: 'team.example:4310' };

describe('STU-08 cross-origin API access for Connect to server from a browser (yukta.http.cors-origins)', () => {
  it('answers the preflight and marks answers (a refused key too) for a listed origin while keys are required', async () => {
    const server = await serve({ 'yukta.api-key': KEY, 'yukta.http.cors-origins': [STUDIO] });
    const pre = await server.app.inject({ method: 'OPTIONS', url: '/api/node-types', headers: { ...preflight, origin: STUDIO } });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(STUDIO);
    expect(pre.headers['access-control-allow-headers']).toContain('authorization');
    const ok = await server.app.inject({
      method: 'GET',
      url: '/api/node-types',
      headers: { origin: STUDIO, authorization: `Bearer ${KEY}`, host: 'team.example:4310' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(STUDIO);
    const refused = await server.app.inject({
      method: 'GET',
      url: '/api/node-types',
      headers: { origin: STUDIO, authorization: 'Bearer wrong-key-0123456789abc', host: 'team.example:4310' },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(STUDIO);
  });

  it('allows nothing for another origin, without keys, or outside /api/', async () => {
    const keyed = await serve({ 'yukta.api-key': KEY, 'yukta.http.cors-origins': [STUDIO] });
    const other = await keyed.app.inject({ method: 'OPTIONS', url: '/api/node-types', headers: { ...preflight, origin: 'http://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const page = await keyed.app.inject({ method: 'GET', url: '/index.html', headers: { origin: STUDIO, host: 'team.example:4310' } });
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    const open = await serve({ 'yukta.http.cors-origins': [STUDIO] });
    const noKeys = await open.app.inject({ method: 'OPTIONS', url: '/api/node-types', headers: { ...preflight, origin: STUDIO, host: '127.0.0.1:4310' } });
    expect(noKeys.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('marks the event stream too (written straight to the socket)', async () => {
    const server = await serve({ 'yukta.api-key': KEY, 'yukta.http.cors-origins': [STUDIO] });
    const { url } = await server.listen();
    const controller = new AbortController();
    const response = await fetch(`${url}/api/events/stream`, { headers: { origin: STUDIO, authorization: `Bearer ${KEY}` }, signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(STUDIO);
    controller.abort();
  });

  it('refuses a setting that is not an origin, naming it', () => {
    expect(() => parseHostSettings({ 'yukta.http.cors-origins': ['http://studio.example/path'] })).toThrow(
      /setting yukta\.http\.cors-origins\.0\b.*: an origin: scheme:\/\/host\[:port\], no path/,
    );
  });
});
