#!/usr/bin/env node
// The `yukta` command. Runs the bundled CLI (dist/main/cli.mjs, from `npm run build:main`) when it exists;
// otherwise, in a source checkout, runs main/cli/index.ts through tsx. YUKTA_CLI_FROM_SOURCE=1 forces the
// source, so a stale bundle never hides a change during development.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundled = new URL('../dist/main/cli.mjs', import.meta.url);

if (process.env.YUKTA_CLI_FROM_SOURCE !== '1' && existsSync(fileURLToPath(bundled))) {
  await import(bundled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../main/cli/index.ts', import.meta.url).href);
}
