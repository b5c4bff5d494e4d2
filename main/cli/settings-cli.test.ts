import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, startServe, tempDataFolders } from './cli-process';

const folders = tempDataFolders('yukta-cfg-');
afterAll(folders.removeAll);
const dataWith = folders.with;

const HELLO = join(import.meta.dirname, 'test-fixtures', 'hello.json');

describe.concurrent('CFG-01 serve and run refuse a bad setting with one line and exit 2', () => {
  it('serve: a misspelt key in settings.json', async () => {
    const dir = dataWith({ 'yukta.execution.max-concurent': 1 });
    const r = await cli(['serve', '--port', '0', '--data', dir, '--store', 'memory']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `cannot start: unknown setting "yukta.execution.max-concurent" in settings file ${join(dir, 'settings.json')}: did you mean yukta.execution.max-concurrent?\n`,
    );
    expect(r.stdout).toBe('');
  });

  it('serve: a misspelt environment variable and a bad --set value', async () => {
    const dir = dataWith({});
    const env = await cli(['serve', '--port', '0', '--data', dir, '--store', 'memory'], { YUKTA_EXECUTION_ON_LIMT: 'REJECT' });
    expect([env.code, env.stderr]).toEqual([
      2,
      'cannot start: unknown setting variable YUKTA_EXECUTION_ON_LIMT in the environment: did you mean YUKTA_EXECUTION_ON_LIMIT?\n',
    ]);
    const flag = await cli(['serve', '--port', '0', '--data', dir, '--store', 'memory', '--set', 'yukta.execution.queue-timeout=soon']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(
      /^cannot start: setting yukta\.execution\.queue-timeout in flag --set: must be a duration such as 30s, 10m, 1h .*\(got "soon"\)\n$/,
    );
  });

  it('run: a misspelt --set key', async () => {
    const r = await cli(['run', HELLO, '--set', 'yukta.start.idempotency-tl=1m']);
    expect([r.code, r.stderr]).toEqual([
      2,
      'cannot start: unknown setting "yukta.start.idempotency-tl" in flag --set: did you mean yukta.start.idempotency-ttl?\n',
    ]);
  });
});

describe('CFG-01 serve reads settings.json, the environment and --set', () => {
  it('shows yukta.execution.max-concurrent from the file in GET /api/scheduler, a flag over the environment over the file', async () => {
    const dir = dataWith({ 'yukta.execution.max-concurrent': 1, 'yukta.execution.queue-capacity': 5, 'yukta.execution.shutdown-timeout': '0' });
    const serve = await startServe(
      ['--data', dir, '--store', 'memory', '--set', 'yukta.execution.queue-capacity=7', '--set', 'yukta.execution.on-limit=REJECT'],
      { YUKTA_EXECUTION_QUEUE_CAPACITY: '6', YUKTA_EXECUTION_MAX_CONCURRENT_PER_SESSION: '3' },
    );
    try {
      const view = (await (await fetch(`${serve.url}/api/scheduler`)).json()) as { limits: Record<string, unknown> };
      expect(view.limits).toMatchObject({ maxConcurrent: 1, queueCapacity: 7, onLimit: 'REJECT', maxConcurrentPerSession: 3, shutdownTimeoutMs: 0 });
      // `--store memory` is the flag form of yukta.store: settings.get names it as the value in use and its source.
      const listed = (await (await fetch(`${serve.url}/api/settings`)).json()) as { settings: Array<{ key: string; value?: unknown; source: unknown }> };
      expect(listed.settings.find((s) => s.key === 'yukta.store')).toMatchObject({ value: 'memory', source: { kind: 'flag' } });
    } finally {
      serve.signal('SIGTERM');
      expect(await serve.exited).toBe(0);
    }
  });
});
