import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'yukta-studio';

/**
 * The package root, found by walking up from this module to our package.json: the same answer from
 * `main/cli/*.ts` (tsx) and from the bundled `dist/main/cli.mjs`, whatever the working directory.
 */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return dir;
      } catch {
        // an unreadable package.json on the way up is not ours; keep walking
      }
    }
    if (dirname(dir) === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package root above ${from}`);
  }
}

/** The built renderer served by `yukta serve`. */
export function rendererDir(): string {
  return join(packageRoot(), 'dist', 'renderer');
}

/** The data folder: `--data`, else `$YUKTA_DATA_DIR`, else `~/.yukta-studio`. */
export function dataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag ?? (env.YUKTA_DATA_DIR || join(homedir(), '.yukta-studio')));
}
