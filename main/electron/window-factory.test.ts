import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, CONTENT_SECURITY_POLICY, isAllowedNavigation, isAllowedRequest, mainWindowOptions, rendererEntryUrl } from './window-factory';

describe('SEC-03 Electron window hardening', () => {
  it('isolates and sandboxes the renderer, without Node', () => {
    const prefs = mainWindowOptions('/app/dist/main/preload.cjs').webPreferences!;
    expect(prefs).toMatchObject({
      preload: '/app/dist/main/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('uses a strict CSP, loosened only for the dev server', () => {
    expect(contentSecurityPolicy()).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'",
    );
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe/);
    const dev = contentSecurityPolicy('http://localhost:5173');
    expect(dev).toContain("script-src 'self' 'unsafe-inline'");
    expect(dev).toContain("connect-src 'self' ws://localhost:5173");
  });

  it('loads the app protocol, or the dev server in development', () => {
    expect(rendererEntryUrl()).toBe('app://studio/index.html');
    expect(rendererEntryUrl('http://localhost:5173')).toBe('http://localhost:5173');
  });

  it('allows navigation only within the app origin (parsed, not prefix-matched)', () => {
    expect(isAllowedNavigation('app://studio/index.html#/runs')).toBe(true);
    for (const url of [
      'app://studio.evil.example/',
      'app://evil/',
      'https://example.com/',
      'http://localhost:5173/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'garbage',
    ]) {
      expect(isAllowedNavigation(url), url).toBe(false);
    }
    expect(isAllowedNavigation('http://localhost:5173/#/x', 'http://localhost:5173')).toBe(true);
    expect(isAllowedNavigation('http://localhost:5173.evil.example/', 'http://localhost:5173')).toBe(false);
  });

  it('allows no remote requests', () => {
    expect(isAllowedRequest('app://studio/assets/app.js')).toBe(true);
    expect(isAllowedRequest('data:image/png;base64,AAAA')).toBe(true);
    expect(isAllowedRequest('devtools://devtools/bundled/inspector.html')).toBe(true);
    for (const url of ['https://cdn.example/lib.js', 'http://127.0.0.1:4310/api/workflows', 'ws://localhost:5173/', 'file:///etc/hosts']) {
      expect(isAllowedRequest(url), url).toBe(false);
    }
    expect(isAllowedRequest('ws://localhost:5173/', 'http://localhost:5173')).toBe(true);
  });
});
