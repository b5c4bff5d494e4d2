/**
 * `npm start`: the desktop app on a user's machine (STU-08). Fetches what is missing (the Electron binary,
 * better-sqlite3 for Electron's ABI — see scripts/desktop/first-start.ts) before anything slow, so an
 * offline machine hears so within seconds; then builds the app and runs Electron on it. Any failure is one
 * message and a non-zero exit, never a stack trace.
 */
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { desktopPaths, prepareDesktop, type StartContext } from './desktop/first-start';

export const EXIT_FAILED = 1;

/** What happens once everything is in place: build, then run Electron (replaced in tests). */
export interface Launcher {
  build(root: string): boolean;
  run(executable: string, root: string, args: string[]): Promise<number>;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const realLauncher: Launcher = {
  build: (root) => spawnSync(npm, ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' }).status === 0,
  run: (executable, root, args) =>
    new Promise((done) => {
      const env = { ...process.env };
      // A user's ELECTRON_RUN_AS_NODE would start a Node shell instead of the app.
      delete env.ELECTRON_RUN_AS_NODE;
      const electron = spawn(executable, ['.', ...args], { cwd: root, stdio: 'inherit', env });
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => electron.kill(signal));
      electron.on('error', (error) => {
        process.stderr.write(`Yukta Studio cannot start the desktop app: ${executable} did not run (${error.message}). Try npm run desktop:doctor.\n`);
        done(EXIT_FAILED);
      });
      electron.on('close', (code, signal) => done(code ?? (signal ? EXIT_FAILED : 0)));
    }),
};

/** The whole of `npm start`; resolves with the exit code. Messages go to `ctx.write`. */
export async function startDesktop(ctx: StartContext, args: string[] = [], launcher: Launcher = realLauncher): Promise<number> {
  let prepared;
  try {
    prepared = await prepareDesktop(ctx);
  } catch (error) {
    prepared = { ok: false as const, message: `Yukta Studio cannot start the desktop app: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!prepared.ok) {
    ctx.write(`${prepared.message}\n`);
    return EXIT_FAILED;
  }
  if (!launcher.build(ctx.paths.root)) {
    ctx.write('Yukta Studio cannot start the desktop app: the build failed (its output is above).\n');
    return EXIT_FAILED;
  }
  return launcher.run(prepared.value.executable, ctx.paths.root, args);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const write = (text: string) => void process.stderr.write(text);
  const ctx: StartContext = { paths: desktopPaths(root), env: process.env, platform: process.platform, arch: process.arch, node: process.execPath, write };
  process.exitCode = await startDesktop(ctx, process.argv.slice(2));
}
