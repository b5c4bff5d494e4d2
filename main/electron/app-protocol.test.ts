import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleAppRequest, mimeTypeOf, resolveAppFile } from './app-protocol';

let base: string;
let root: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'yukta-app-'));
  root = join(base, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Yukta</title>');
  writeFileSync(join(root, 'assets', 'app.js'), 'export {}');
  writeFileSync(join(base, 'secret.txt'), 'secret');
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('SEC-03 app:// protocol', () => {
  it('maps app://studio URLs into the renderer folder', () => {
    expect(resolveAppFile(root, 'app://studio/')).toBe(join(root, 'index.html'));
    expect(resolveAppFile(root, 'app://studio/assets/app.js?v=1#x')).toBe(join(root, 'assets', 'app.js'));
  });

  it('refuses paths that leave the folder and foreign hosts', () => {
    for (const url of [
      'app://studio/../secret.txt',
      'app://studio/%2e%2e/secret.txt',
      'app://studio/..%2fsecret.txt',
      'app://studio/assets/..%2f..%2f..%2fsecret.txt',
      'app://studio/%2Fetc%2Fpasswd',
      'app://studio/..%5csecret.txt',
      'app://studio/index.html%00.js',
      'app://other/index.html',
      'https://studio/index.html',
      'app://studio/%E0%A4%A',
    ]) {
      const file = resolveAppFile(root, url);
      expect(file === null || file.startsWith(root + '/'), `${url} → ${file}`).toBe(true);
      expect(file, url).not.toBe(join(base, 'secret.txt'));
    }
    expect(resolveAppFile(root, 'app://studio/..%2fsecret.txt')).toBeNull();
    expect(resolveAppFile(root, 'app://other/index.html')).toBeNull();
  });

  it('serves files with their type and the CSP, 404 otherwise', async () => {
    const page = await handleAppRequest(root, new Request('app://studio/index.html'), "default-src 'self'");
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe("default-src 'self'");
    expect(await page.text()).toContain('Yukta');
    const script = await handleAppRequest(root, new Request('app://studio/assets/app.js'), 'x');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await handleAppRequest(root, new Request('app://studio/missing.js'), 'x')).status).toBe(404);
    expect((await handleAppRequest(root, new Request('app://studio/..%2fsecret.txt'), 'x')).status).toBe(404);
    expect((await handleAppRequest(root, new Request('app://studio/index.html', { method: 'POST', body: 'x' }), 'x')).status).toBe(405);
  });

  it('knows the common mime types', () => {
    expect(mimeTypeOf('a/b.CSS')).toBe('text/css; charset=utf-8');
    expect(mimeTypeOf('font.woff2')).toBe('font/woff2');
    expect(mimeTypeOf('blob.bin')).toBe('application/octet-stream');
  });
});
