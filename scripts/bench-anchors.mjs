#!/usr/bin/env node
// `npm run bench:anchors`: the peer benchmark harness of the team folder (../shared/anchors, beside this
// checkout) with our engine adapter, passed by absolute path so it works whatever the checkout folder is
// called. Extra arguments go to the harness.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const anchors = resolve(root, '..', 'shared', 'anchors');
const harness = join(anchors, 'nodered-bench.mjs');
if (!existsSync(harness)) {
  console.error(`bench:anchors: no harness at ${harness} (the team folder ../shared/anchors beside this checkout)`);
  process.exit(2);
}
const adapter = join(root, 'bench', 'anchors-adapter.mjs');
const result = spawnSync(process.execPath, ['--expose-gc', harness, '--engine', adapter, ...process.argv.slice(2)], { cwd: anchors, stdio: 'inherit' });
process.exit(result.status ?? 1);
