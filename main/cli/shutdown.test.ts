import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseHostSettings } from '../host/host-settings';
import { CLI_CALLER, StudioHost } from '../host/studio-host';
import { startCli, startServe, tempDataFolders } from './cli-process';

const folders = tempDataFolders('yukta-stop-');
afterAll(folders.removeAll);
const dataWith = folders.with;

const FIXTURES = join(import.meta.dirname, 'test-fixtures');
const WAIT_SIGNAL = JSON.parse(readFileSync(join(FIXTURES, 'wait-signal.json'), 'utf8')) as Record<string, unknown>;

async function call(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}${path}`, { method, ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** `yukta serve` on a new data folder with `settings`, the approval workflow saved and one run of it waiting. */
async function serveWithWaitingRun(settings: Record<string, unknown>) {
  const dir = dataWith(settings);
  const serve = await startServe(['--data', dir]);
  expect((await call(serve.url, 'POST', '/api/workflows', { definition: WAIT_SIGNAL })).status).toBe(200);
  const start = async () => (await call(serve.url, 'POST', '/api/workflow/start', { workflowId: 'approve' })).body.executionId as string;
  return { dir, serve, start, running: await start() };
}

/** Reads the runs back from the data folder with a fresh host (what the stopped server flushed). */
async function statusesIn(dataDir: string, ids: string[]): Promise<string[]> {
  const host = new StudioHost({ dataDir, settings: parseHostSettings({}), env: {} });
  try {
    await host.ready;
    const out: string[] = [];
    for (const id of ids) {
      const run = await host.invoke('runs.get', { executionId: id }, CLI_CALLER);
      out.push(run.ok ? (run.value as { status: string }).status : run.error.code);
    }
    return out;
  } finally {
    await host.close();
  }
}

describe('ADM-01 shutdown of yukta serve (SIGTERM, real child process)', () => {
  it('refuses new and queued starts (reason=shutdown), lets the running run finish, flushes the stores and exits 0', async () => {
    const { dir, serve, start, running } = await serveWithWaitingRun({ 'yukta.execution.max-concurrent': 1, 'yukta.execution.shutdown-timeout': '1h' });
    const queued = await start();
    expect((await call(serve.url, 'GET', `/api/executions/${queued}`)).body.status).toBe('QUEUED');

    serve.signal('SIGTERM');
    await serve.line(/^Stopping \(SIGTERM\): no new runs are admitted; running runs get 1h/);
    // The API still answers while the running run has its time: new starts are refused, the queued one was.
    const refused = await call(serve.url, 'POST', '/api/workflow/start', { workflowId: 'approve' });
    expect([refused.status, (refused.body.error as { code: string }).code]).toEqual([503, 'UNAVAILABLE']);
    expect((await call(serve.url, 'GET', `/api/executions/${queued}`)).body.status).toBe('CANCELLED');
    expect((await call(serve.url, 'GET', `/api/executions/${running}`)).body.status).toBe('RUNNING');
    const metrics = await (await fetch(`${serve.url}/metrics`)).text();
    expect(metrics).toContain('yukta_executions_rejected_total{reason="shutdown"} 2');

    // An approval lets the running run end within its time; then the server stops by itself.
    expect((await call(serve.url, 'POST', `/api/executions/${running}/signal`, { nodeId: 'ok' })).status).toBe(200);
    expect(await serve.exited).toBe(0);
    expect(serve.lines.at(-1)).toBe('Stopped.');
    expect(await statusesIn(dir, [running, queued])).toEqual(['SUCCESS', 'CANCELLED']);
  });

  it('kills a run still going when yukta.execution.shutdown-timeout is over, and exits 0', async () => {
    const { dir, serve, running } = await serveWithWaitingRun({ 'yukta.execution.shutdown-timeout': '200ms' });
    serve.signal('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(serve.lines).toContain('Stopped.');
    expect(await statusesIn(dir, [running])).toEqual(['CANCELLED']);
  });

  it('exits at once on a second SIGTERM; the unfinished run is ABORTED at the next start', async () => {
    const { dir, serve, running } = await serveWithWaitingRun({ 'yukta.execution.shutdown-timeout': '1h' });
    serve.signal('SIGTERM');
    await serve.line(/^Stopping \(SIGTERM\)/);
    serve.signal('SIGTERM');
    expect(await serve.exited).toBe(1);
    expect(serve.stderr()).toContain('SIGTERM again: exiting now without waiting for running runs.');
    expect(await statusesIn(dir, [running])).toEqual(['ABORTED']);
  });
});

describe('ADM-01 shutdown of yukta run (SIGTERM, real child process)', () => {
  it('lets the run finish within yukta.execution.shutdown-timeout and exits with its status, 0', async () => {
    const run = startCli(['run', join(FIXTURES, 'delay.json'), '--payload', '{"ms":1500}', '--set', 'yukta.execution.shutdown-timeout=1h']);
    await run.line(/^Running pause /);
    run.signal('SIGTERM');
    await run.line(/^Stopping \(SIGTERM\): the run gets 1h/);
    expect(await run.exited).toBe(0);
    expect(run.lines.at(-1)).toBe('Final status: SUCCESS');
  });

  it('kills the run when the time is over: CANCELLED, exit 1', async () => {
    const run = startCli(['run', join(FIXTURES, 'wait-signal.json'), '--set', 'yukta.execution.shutdown-timeout=100ms']);
    await run.line(/^Running approve /);
    run.signal('SIGTERM');
    expect(await run.exited).toBe(1);
    expect(run.lines.at(-1)).toMatch(/^Final status: CANCELLED/);
  });
});
