// Bundles the main-process code with esbuild (`npm run build:main`; `--outdir DIR` to build elsewhere):
//   electron.cjs  Electron main process (cjs). electron, native modules and the HTTP server packages stay
//                 external: they ship in node_modules, and fastify (ws) loads only when the HTTP API (the
//                 workers' listener) is enabled.
//   preload.cjs   sandboxed preload (cjs). A sandboxed preload may require only 'electron', so all else is
//                 bundled; the StudioApi contract is replaced by its operation names (see below).
//   cli.mjs       the `yukta` CLI (esm for Node 20; npm packages stay external).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Native modules cannot be bundled; packaging rebuilds them for Electron (`electron-builder install-app-deps`).
 * `pg-native` is pg's optional libpq binding: never installed nor loaded (the stores use pg's JavaScript client).
 */
const NATIVE = ['better-sqlite3', 'pg-native'];
const HTTP_PACKAGES = ['fastify', '@fastify/static', 'ws'];

/** The contract's operation names, read from shared/api/contract.ts itself (one source of truth). */
async function operationNames() {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['shared/api/contract.ts'],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'warning',
  });
  const code = Buffer.from(result.outputFiles[0].contents).toString('base64');
  const { OPERATION_NAMES } = await import(`data:text/javascript;base64,${code}`);
  return OPERATION_NAMES;
}

/**
 * The preload needs only `isOperationName` from the contract; importing the contract itself would bundle
 * zod and every schema (~750 KB) into a script that runs on each page load. This plugin gives the preload
 * a generated module with just the names; importing anything else from the contract fails the build.
 */
function contractNamesOnly(names) {
  return {
    name: 'contract-names-only',
    setup(b) {
      b.onResolve({ filter: /[\\/]shared[\\/]api[\\/]contract$/ }, () => ({ path: 'contract-names', namespace: 'yukta-generated' }));
      b.onLoad({ filter: /.*/, namespace: 'yukta-generated' }, () => ({
        loader: 'js',
        contents: [
          `export const OPERATION_NAMES = Object.freeze(${JSON.stringify(names)});`,
          'const NAMES = new Set(OPERATION_NAMES);',
          "export function isOperationName(name) { return typeof name === 'string' && NAMES.has(name); }",
        ].join('\n'),
      }));
    },
  };
}

/** Builds the three bundles into `outdir` (relative to the repository root unless absolute). */
export async function buildMain({ outdir = 'dist/main' } = {}) {
  const out = resolve(ROOT, outdir);
  const common = { absWorkingDir: ROOT, bundle: true, sourcemap: true, logLevel: 'warning', legalComments: 'none' };
  const targets = [
    // import.meta.url (used to resolve packages at run time, e.g. the SCRIPT sandbox's QuickJS) from __filename.
    {
      ...common,
      entryPoints: ['main/electron/main.ts'],
      outfile: `${out}/electron.cjs`,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['electron', ...NATIVE, ...HTTP_PACKAGES],
      define: { 'import.meta.url': '__yuktaImportMetaUrl' },
      banner: { js: '"use strict"; const __yuktaImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    },
    {
      ...common,
      entryPoints: ['main/preload/preload.ts'],
      outfile: `${out}/preload.cjs`,
      platform: 'node',
      format: 'cjs',
      target: 'chrome130',
      external: ['electron'],
      plugins: [contractNamesOnly(await operationNames())],
    },
    {
      ...common,
      entryPoints: ['main/cli/index.ts'],
      outfile: `${out}/cli.mjs`,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      banner: { js: '#!/usr/bin/env node' },
    },
  ];
  rmSync(out, { recursive: true, force: true });
  await Promise.all(targets.map((options) => build(options)));
  return targets.map((t) => t.outfile);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
  const started = Date.now();
  const files = await buildMain(values.outdir ? { outdir: values.outdir } : {});
  console.log(`build-main: ${files.map((f) => f.slice(ROOT.length)).join(', ')} in ${Date.now() - started} ms`);
}
