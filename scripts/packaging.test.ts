import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// js-yaml is electron-builder's own YAML reader (installed with it): the file is read as the packager reads it.
const { load } = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

/** The parts of electron-builder.yml this test checks, parsed (not cast). */
const Config = z.object({
  appId: z.string(),
  productName: z.string(),
  icon: z.string(),
  npmRebuild: z.boolean(),
  nativeRebuilder: z.string(),
  asar: z.boolean(),
  asarUnpack: z.array(z.string()),
  files: z.array(z.string()),
  extraResources: z.array(z.object({ from: z.string(), to: z.string() })),
  fileAssociations: z.array(z.object({ ext: z.string(), name: z.string(), mimeType: z.string(), role: z.string() })),
  protocols: z.array(z.object({ name: z.string(), schemes: z.array(z.string()) })),
  linux: z.object({ target: z.array(z.string()), icon: z.string() }),
  mac: z.object({ target: z.array(z.string()), icon: z.string() }),
  win: z.object({ target: z.array(z.string()), icon: z.string() }),
  electronFuses: z.record(z.string(), z.boolean()),
});

const raw = load(readFileSync(`${ROOT}/electron-builder.yml`, 'utf8'));
const config = Config.parse(raw);
const manifest = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { scripts: Record<string, string>; productName?: string; main: string };

describe('STU-08 packaging (electron-builder.yml, npm run dist)', () => {
  it("is a configuration electron-builder's own schema accepts (no key it would refuse at packaging time)", () => {
    // ajv is installed with the MCP SDK; the schema ships with electron-builder (app-builder-lib/scheme.json).
    const Ajv = createRequire(import.meta.url)('ajv') as new (options: object) => {
      compile(schema: unknown): ((data: unknown) => boolean) & { errors?: unknown };
    };
    const validate = new Ajv({ allErrors: true, strict: false }).compile(
      JSON.parse(readFileSync(createRequire(import.meta.url).resolve('app-builder-lib/scheme.json'), 'utf8')),
    );
    expect(validate(raw), JSON.stringify(validate.errors)).toBe(true);
  });

  it('npm run dist builds the app, then packages it with native modules rebuilt for Electron', () => {
    expect(manifest.scripts.dist).toBe('npm run build && electron-builder');
    expect(config.npmRebuild).toBe(true);
    // The app-builder rebuilder runs on the Node 20 this project supports; @electron/rebuild 4 needs Node 22.
    expect(config.nativeRebuilder).toBe('legacy');
    expect(config.asarUnpack).toContain('**/*.node');
    // The start script's builds for Electron stay out of the package (only dist/ and the manifest go in).
    expect(config.files).toEqual(['dist/**', 'package.json', '!dist/**/*.map', '!dist/.bundle-test-*/**']);
    expect(manifest.main).toBe('dist/main/electron.cjs');
  });

  it('targets AppImage and deb, dmg, nsis', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
  });

  it('flips the fuses: RunAsNode, NODE_OPTIONS and inspect arguments off; asar integrity and only-load-from-asar on', () => {
    expect(config.asar).toBe(true);
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('associates .yukta.json files and registers the yukta:// protocol', () => {
    expect(config.fileAssociations).toEqual([{ ext: 'yukta.json', name: 'Yukta workflow', mimeType: 'application/x-yukta-workflow+json', role: 'Editor' }]);
    expect(config.protocols).toEqual([{ name: 'Yukta Studio link', schemes: ['yukta'] }]);
  });

  it('takes its icons from assets/ and ships the reference page for Help → Documentation', () => {
    for (const icon of [config.icon, config.linux.icon, config.mac.icon, config.win.icon]) {
      expect(icon.startsWith('assets/'), icon).toBe(true);
      expect(existsSync(`${ROOT}/${icon}`), icon).toBe(true);
    }
    expect(config.extraResources).toEqual([{ from: 'docs/reference.md', to: 'docs/reference.md' }]);
    expect(config.productName).toBe(manifest.productName); // the same userData folder packaged and from a checkout
  });
});
