import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { fakeContents } from './test-support/fake-electron';
import {
  denyPermission,
  hardenContents,
  isExternalLinkClick,
  SECURE_WEB_PREFERENCES,
  secureSession,
  webPreferenceViolations,
  WindowGuard,
  type SessionLike,
} from './harden';
import { contentSecurityPolicy, mainWindowOptions } from './window-factory';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('SEC-03 Electron runtime hardening (web-contents-created guard)', () => {
  it('the window factory gives every checklist setting explicitly', () => {
    expect(webPreferenceViolations(mainWindowOptions('/p.cjs').webPreferences as Record<string, unknown>)).toEqual([]);
  });

  it('names every insecure or missing webPreference', () => {
    const secure = { ...SECURE_WEB_PREFERENCES } as Record<string, unknown>;
    expect(webPreferenceViolations(secure)).toEqual([]);
    expect(webPreferenceViolations(undefined).length).toBe(Object.values(SECURE_WEB_PREFERENCES).filter((v) => v !== undefined).length);
    for (const [key, bad] of [
      ['contextIsolation', false],
      ['sandbox', false],
      ['nodeIntegration', true],
      ['nodeIntegrationInWorker', true],
      ['nodeIntegrationInSubFrames', true],
      ['webSecurity', false],
      ['allowRunningInsecureContent', true],
      ['webviewTag', true],
      ['experimentalFeatures', true],
      ['enableBlinkFeatures', 'X'],
    ] as const) {
      expect(webPreferenceViolations({ ...secure, [key]: bad }).join(), key).toContain(key);
    }
    const withoutSandbox = { ...secure };
    delete withoutSandbox.sandbox;
    expect(webPreferenceViolations(withoutSandbox)).toEqual(['sandbox must be true (is unset)']);
  });

  it('builds windows only with secure webPreferences and admits only the windows it built', () => {
    const guard = new WindowGuard();
    const construct = vi.fn((options: { webPreferences?: object }) => options);
    expect(() => guard.create(construct, { webPreferences: { ...SECURE_WEB_PREFERENCES, nodeIntegration: true } })).toThrow(/nodeIntegration must be false/);
    expect(() => guard.create(construct, {})).toThrow(/contextIsolation must be true/);
    expect(construct).not.toHaveBeenCalled();

    const options = { openExternal: vi.fn(), log: vi.fn() };
    let own = fakeContents('window');
    guard.create(() => guard.onWebContentsCreated((own = fakeContents('window')), options), mainWindowOptions('/p.cjs'));
    expect(own.closed).toBe(false);
    for (const type of ['window', 'webview', 'browserView']) {
      const stray = fakeContents(type);
      guard.onWebContentsCreated(stray, options);
      expect(stray.closed, type).toBe(true);
    }
    const devtools = fakeContents('remote');
    guard.onWebContentsCreated(devtools, options);
    expect(devtools.closed).toBe(false);
    expect(guard.closed).toHaveLength(3);
  });

  it('blocks navigation and redirects off the app origin, parsed (not prefix-matched)', () => {
    const contents = fakeContents();
    hardenContents(contents, { openExternal: vi.fn() });
    const verdict = (event: string, url: string): boolean => {
      const e = { url, preventDefault: vi.fn() };
      contents.emit(event, e);
      return e.preventDefault.mock.calls.length === 0;
    };
    for (const event of ['will-navigate', 'will-redirect', 'will-frame-navigate']) {
      expect(verdict(event, 'app://studio/index.html#/runs')).toBe(true);
      for (const url of [
        'app://studio.evil.example/',
        'app://studio@evil.example/',
        'app://user:pw@studio/',
        'https://example.com/',
        'file:///etc/passwd',
        'javascript:alert(1)',
        'http://localhost:4310/',
        'not a url',
      ]) {
        expect(verdict(event, url), `${event} ${url}`).toBe(false);
      }
    }
  });

  it('denies every new window; only a clicked http(s) link opens in the user browser, once a second at most', () => {
    let now = 10_000;
    const openExternal = vi.fn();
    const contents = fakeContents();
    hardenContents(contents, { openExternal, now: () => now });
    const open = (url: string, disposition: string) => contents.openHandler!({ url, disposition });
    for (const [url, disposition] of [
      ['https://example.com/', 'new-window'], // window.open with features
      ['https://example.com/', 'default'],
      ['https://example.com/', 'other'],
      ['file:///etc/passwd', 'foreground-tab'],
      ['javascript:alert(1)', 'foreground-tab'],
      ['smb://server/share', 'foreground-tab'],
      ['app://studio/index.html', 'foreground-tab'],
      ['https://user:pw@example.com/', 'foreground-tab'],
      ['garbage', 'foreground-tab'],
    ]) {
      expect(open(url!, disposition!)).toEqual({ action: 'deny' });
    }
    expect(openExternal).not.toHaveBeenCalled();
    expect(open('https://example.com/docs', 'foreground-tab')).toEqual({ action: 'deny' });
    expect(open('https://example.com/again', 'background-tab')).toEqual({ action: 'deny' });
    now += 1000;
    expect(open('http://example.com/later', 'background-tab')).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://example.com/docs'], ['http://example.com/later']]);
    expect(isExternalLinkClick({ url: 'HTTPS://EXAMPLE.COM', disposition: 'foreground-tab' })).toBe(true);
  });

  it('refuses <webview> and neutralises its preferences', () => {
    const contents = fakeContents();
    hardenContents(contents, { openExternal: vi.fn() });
    const event = { preventDefault: vi.fn() };
    const prefs: Record<string, unknown> = { preload: '/evil.js', nodeIntegration: true, contextIsolation: false, webSecurity: false };
    contents.emit('will-attach-webview', event, prefs);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(prefs.preload).toBeUndefined();
    expect(webPreferenceViolations(prefs)).toEqual([]);
  });

  it('the session denies every permission, every remote request, and puts the CSP on every response', async () => {
    const handlers: Record<string, (...args: never[]) => unknown> = {};
    const ses: SessionLike = {
      setPermissionRequestHandler: (h) => (handlers.request = h as never),
      setPermissionCheckHandler: (h) => (handlers.check = h as never),
      setDevicePermissionHandler: (h) => (handlers.device = h as never),
      webRequest: { onBeforeRequest: (h) => (handlers.before = h as never), onHeadersReceived: (h) => (handlers.headers = h as never) },
      protocol: { handle: (scheme, h) => (handlers[`protocol:${scheme}`] = h as never) },
    };
    const csp = contentSecurityPolicy();
    secureSession(ses, { rendererDir: '/nonexistent', csp });
    expect(denyPermission()).toBe(false);
    // notifications too: approval notifications come from the main process, never the page.
    for (const permission of [
      'notifications',
      'media',
      'geolocation',
      'clipboard-read',
      'clipboard-sanitized-write',
      'openExternal',
      'fullscreen',
      'hid',
      'serial',
      'usb',
      'midiSysex',
      'pointerLock',
      'display-capture',
      'unknown',
    ]) {
      const callback = vi.fn();
      (handlers.request as (c: unknown, p: string, cb: (g: boolean) => void) => void)(null, permission, callback);
      expect(callback, permission).toHaveBeenCalledWith(false);
      expect((handlers.check as (c: unknown, p: string) => boolean)(null, permission), permission).toBe(false);
    }
    expect((handlers.device as (d: unknown) => boolean)({ deviceType: 'usb' })).toBe(false);
    const before = (url: string): unknown => {
      let verdict: unknown;
      (handlers.before as (d: { url: string }, cb: (v: unknown) => void) => void)({ url }, (v) => (verdict = v));
      return verdict;
    };
    expect(before('app://studio/assets/index.js')).toEqual({ cancel: false });
    expect(before('https://cdn.example/x.js')).toEqual({ cancel: true });
    expect(before('http://169.254.169.254/latest/meta-data')).toEqual({ cancel: true });
    let response: { responseHeaders: Record<string, string[]> } | undefined;
    (handlers.headers as (d: unknown, cb: (v: typeof response) => void) => void)({ responseHeaders: { 'X-Other': ['1'] } }, (v) => (response = v));
    expect(response!.responseHeaders).toEqual({ 'X-Other': ['1'], 'Content-Security-Policy': [csp] });
    expect(handlers['protocol:app']).toBeTypeOf('function');
  });
});

describe('SEC-03 Content Security Policy', () => {
  const directives = (policy: string): Map<string, string[]> =>
    new Map(
      policy
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name!, values]),
    );

  it('no eval, no inline script, no remote origin, no plugins, no framing', () => {
    const policy = directives(contentSecurityPolicy());
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(contentSecurityPolicy()).not.toMatch(/unsafe-eval|wasm-unsafe-eval|https?:|\*/);
  });

  it('the built page carries the same kind of CSP as a meta tag (vite build), without unsafe-eval', () => {
    const config = readFileSync(`${ROOT}/renderer/vite.config.ts`, 'utf8');
    expect(config).toContain('"script-src \'self\'"');
    expect(config).not.toContain('unsafe-eval');
  });
});

describe('SEC-03 electron-builder fuses', () => {
  it('packaged binaries cannot run as Node, take NODE_OPTIONS or --inspect, and load only their verified asar', () => {
    const yml = readFileSync(`${ROOT}/electron-builder.yml`, 'utf8');
    const block = /^electronFuses:\n((?:[ \t]+.*\n?)+)/m.exec(yml)?.[1] ?? '';
    const fuses = Object.fromEntries([...block.matchAll(/^\s+(\w+):\s*(true|false)\s*$/gm)].map((m) => [m[1], m[2] === 'true']));
    expect(fuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(yml).toMatch(/^asar: true$/m);
  });
});
