import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHostSettings } from '../host/host-settings';
import { StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from '../http/http-server';
import { helloWorkflow } from '../http/test-workflows';
import { closedPort } from '../test-support/closed-port';
import { checkServer, forwardToServer, RemoteServerStore, REMOTE_SERVER_FILE } from './remote-server';

const KEY = 'team-server-key-0123456789';
let host: StudioHost;
let server: StudioHttpServer;
let base: string;
let notYukta: Server;
let notYuktaUrl: string;

beforeAll(async () => {
  host = new StudioHost({ settings: parseHostSettings({ 'yukta.api-key': KEY }), env: {} });
  await host.invoke('workflows.save', { definition: helloWorkflow('team-flow') }, { actor: 'test', role: 'ADMIN' });
  server = await createHttpServer({ host, bind: { port: 0 } });
  base = (await server.listen()).url;
  notYukta = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>nope</h1>'));
  await new Promise<void>((resolve) => notYukta.listen(0, '127.0.0.1', resolve));
  notYuktaUrl = `http://127.0.0.1:${(notYukta.address() as { port: number }).port}`;
});

afterAll(async () => {
  await server.close();
  await host.close();
  await new Promise((resolve) => notYukta.close(resolve));
});

describe('STU-08 connect to server: checking a team server and its key (a real yukta HTTP server)', () => {
  it('connects with the right key', async () => {
    expect(await checkServer(`${base}/`, KEY)).toEqual({ outcome: { ok: true }, target: { url: base, apiKey: KEY } });
  });

  it('says so in the dialog when the key is refused, the server is unreachable, or it is not a Yukta server', async () => {
    expect((await checkServer(base, 'wrong-key-0123456789abcdef')).outcome).toEqual({
      ok: false,
      field: 'apiKey',
      message: 'the server refused the API key: the API key is not valid',
    });
    const port = await closedPort();
    expect((await checkServer(`http://127.0.0.1:${port}`, KEY)).outcome).toEqual({
      ok: false,
      field: 'url',
      message: `http://127.0.0.1:${port} is not reachable (ECONNREFUSED)`,
    });
    expect((await checkServer(notYuktaUrl, KEY)).outcome).toEqual({
      ok: false,
      field: 'url',
      message: `${notYuktaUrl} answered HTTP 404, but not as a Yukta server`,
    });
  });

  it('refuses bad input before any request: not http(s), credentials in the URL, a key with spaces', async () => {
    expect((await checkServer('javascript:alert(1)', KEY)).outcome).toEqual({
      ok: false,
      field: 'url',
      message: 'only http:// and https:// servers can be reached, not javascript:',
    });
    expect((await checkServer('http://ada:secret@example.com', KEY)).outcome).toMatchObject({
      field: 'url',
      message: 'put the API key in its own field, not in the address',
    });
    expect((await checkServer(base, 'two words')).outcome).toEqual({ ok: false, field: 'apiKey', message: 'an API key has no spaces or line breaks' });
    expect((await checkServer(base, '')).outcome).toMatchObject({ field: 'apiKey' });
  });
});

describe('STU-08 app://studio/remote/api/… forwarded to the server with the key', () => {
  const target = () => ({ url: base, apiKey: KEY });

  it('forwards reads and writes with the key; the page never sends it', async () => {
    const list = await forwardToServer(target(), new Request('app://studio/remote/api/workflows?session=default'));
    expect(list.status).toBe(200);
    expect(((await list.json()) as Array<{ workflowId: string }>).map((w) => w.workflowId)).toEqual(['team-flow']);
    const save = await forwardToServer(
      target(),
      new Request('app://studio/remote/api/workflows', {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: 'x=1' },
        body: JSON.stringify({ definition: helloWorkflow('from-desktop') }),
      }),
    );
    expect(save.status).toBe(200);
    expect((await host.invoke('workflows.get', { workflowId: 'from-desktop' }, { actor: 'test', role: 'ADMIN' })).ok).toBe(true);
  });

  it('streams the event stream through', async () => {
    const response = await forwardToServer(target(), new Request('app://studio/remote/api/events/stream'));
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain(': connected');
    await reader.cancel();
  });

  it('answers 404 outside /remote/api/ or when not connected, and 502 in the API shape when the server is gone', async () => {
    expect((await forwardToServer(target(), new Request('app://studio/remote/index.html'))).status).toBe(404);
    expect((await forwardToServer(null, new Request('app://studio/remote/api/workflows'))).status).toBe(404);
    const port = await closedPort();
    const gone = await forwardToServer({ url: `http://127.0.0.1:${port}`, apiKey: KEY }, new Request('app://studio/remote/api/workflows'));
    expect(gone.status).toBe(502);
    expect(await gone.json()).toEqual({ error: { code: 'UNAVAILABLE', message: `http://127.0.0.1:${port} is not reachable (ECONNREFUSED)` } });
  });
});

describe('STU-08 the chosen server kept in userData, its key encrypted (safeStorage)', () => {
  const encryptor = {
    isEncryptionAvailable: () => true,
    encryptString: (t: string) => Buffer.from(t).reverse(),
    decryptString: (b: Buffer) => Buffer.from(b).reverse().toString(),
  };

  it('stores the URL and only ciphertext of the key, and reads them back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'yukta-remote-'));
    const store = new RemoteServerStore(dir, encryptor);
    expect(store.load()).toBeNull();
    store.save({ url: 'https://yukta.example.com', apiKey: KEY });
    expect(readFileSync(join(dir, REMOTE_SERVER_FILE), 'utf8')).not.toContain(KEY);
    expect(store.load()).toEqual({ url: 'https://yukta.example.com', apiKey: KEY });
    store.clear();
    expect(store.load()).toBeNull();
  });

  it('keeps nothing when the OS keychain is not available', () => {
    const dir = mkdtempSync(join(tmpdir(), 'yukta-remote-'));
    const store = new RemoteServerStore(dir, { ...encryptor, isEncryptionAvailable: () => false });
    expect(() => store.save({ url: 'https://yukta.example.com', apiKey: KEY })).toThrow('the OS keychain is not available');
    expect(store.load()).toBeNull();
  });
});
