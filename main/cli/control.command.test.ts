import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../engine/index';
import { CLI_CALLER, StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from '../http/http-server';
import { runCli } from './cli';

let host: StudioHost;
let server: StudioHttpServer;
let url: string;

beforeAll(async () => {
  host = new StudioHost({ engine: { clock: new ManualClock(0), scheduler: { limits: { shutdownTimeoutMs: 0 } } } });
  server = await createHttpServer({ host, bind: { port: 0 } });
  url = (await server.listen()).url;
  const definition = {
    workflowId: 'cli-control',
    nodes: [
      { nodeId: 't', type: 'API_TRIGGER' },
      { nodeId: 'ok', type: 'WAIT_FOR_SIGNAL', config: { signal: 'go' } },
      { nodeId: 'o', type: 'CONSOLE_TERMINAL' },
    ],
    edges: [
      { source: 't', target: 'ok' },
      { source: 'ok', target: 'o' },
    ],
  };
  await host.invoke('workflows.save', { definition }, CLI_CALLER);
});

afterAll(async () => {
  await server.close();
  await host.close();
});

async function start(): Promise<string> {
  const started = await host.invoke('runs.start', { workflowId: 'cli-control' }, CLI_CALLER);
  if (!started.ok) throw new Error(started.error.message);
  return (started.value as { executionId: string }).executionId;
}

async function control(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['control', ...args, '--url', url], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

describe('CTL-01 CLI: yukta control', () => {
  it('pause, step N, resume and signal a run on a running server; the audit names the HTTP caller', async () => {
    const id = await start();
    expect(await control(id, 'pause')).toEqual({ code: 0, out: [`PauseWorkflow applied (run ${id})`], err: [] });
    expect((await control(id, 'step', '2', '--node', 'o')).out).toEqual([`Step applied (run ${id})`]);
    expect((await control(id, 'resume')).code).toBe(0);
    expect(await control(id, 'signal', 'ok', '--data', '{"by":"cli"}')).toMatchObject({ code: 0, out: [`Signal ACCEPTED (run ${id})`] });
    expect(await host.engine.waitForRun(id)).toBe('SUCCESS');
    const audit = await host.engine.control.audit({ executionId: id, offset: 0, limit: 10 });
    expect(audit.entries.map((e) => `${e.status} ${e.actor}`).reverse()).toEqual([
      'PauseWorkflow http:local',
      'Step http:local',
      'ResumeWorkflow http:local',
      'Signal http:local',
    ]);
  });

  it('stop --mode KILL ends the run CANCELLED; a refusal exits 1 with the error; bad usage exits 2', async () => {
    const id = await start();
    expect((await control(id, 'stop', '--mode', 'kill')).code).toBe(0);
    expect(await host.engine.waitForRun(id)).toBe('CANCELLED');
    const refused = await control(id, 'pause');
    expect(refused.code).toBe(1);
    expect(refused.err[0]).toBe(`CONFLICT: run "${id}" is CANCELLED, not running (at executionId)`);
    expect((await control(id, 'step', 'zero')).code).toBe(2);
    expect((await control(id, 'stop', '--mode', 'DRAIN', '--node', 'ok')).code).toBe(2);
    expect((await control(id, 'signal', 'ok', '--data', '{nope')).code).toBe(2);
    expect((await control(id, 'frobnicate')).code).toBe(2);
  });

  it('says when no server answers at --url', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['control', 'x', 'pause', '--url', 'http://127.0.0.1:9'], { out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(code).toBe(1);
    expect(err[0]).toMatch(/^cannot reach yukta serve at http:\/\/127\.0\.0\.1:9/);
  });
});
