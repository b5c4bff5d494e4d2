import { describe, expect, it } from 'vitest';
import { CliError } from '../cli/cli-io';
import { reconnectPause, RECONNECT_BASE_MS, RECONNECT_MAX_MS } from './reconnect-pause';
import { workerCommand } from './worker.command';

describe('SCL-01 a worker reconnects with a growing, jittered pause', () => {
  it('doubles from 250 ms to at most 30 s, half of it fixed and half random', () => {
    const low = () => 0;
    const high = () => 1;
    expect([0, 1, 2, 3].map((n) => reconnectPause(n, high))).toEqual([250, 500, 1000, 2000]);
    expect([0, 1, 2, 3].map((n) => reconnectPause(n, low))).toEqual([125, 250, 500, 1000]);
    expect(reconnectPause(50, high)).toBe(RECONNECT_MAX_MS);
    expect(reconnectPause(50, low)).toBe(RECONNECT_MAX_MS / 2);
    expect(reconnectPause(0, () => 0.5)).toBe(Math.round(RECONNECT_BASE_MS * 0.75));
  });
});

describe('SCL-01 yukta worker refuses a bad command line, naming what is wrong', () => {
  it('needs an address, a pool and a token; checks names, slots, allowed types and TLS settings', async () => {
    // In this process: every refusal comes before the worker connects or listens for signals.
    const run = async (args: string[], env: Record<string, string> = { YUKTA_WORKER_TOKEN: 'a-token-of-16-chars' }) => {
      const io = { out: () => undefined, err: () => undefined };
      try {
        return { code: await workerCommand(args, io, env), first: '' };
      } catch (error) {
        expect(error).toBeInstanceOf(CliError);
        return { code: (error as CliError).exitCode, first: (error as CliError).message };
      }
    };
    const url = ['--control-plane', 'ws://127.0.0.1:1/workers'];
    expect(await run(['--pool', 'p'])).toEqual({ code: 2, first: 'worker needs --control-plane URL[,URL…] (or yukta.workers.control-plane)' });
    expect(await run([...url])).toEqual({ code: 2, first: 'worker needs --pool NAME' });
    expect(await run(['--control-plane', 'http://x', '--pool', 'p'])).toEqual({
      code: 2,
      first: '--control-plane "http://x" must be a ws:// or wss:// address',
    });
    expect(await run([...url, '--pool', 'p'], {})).toEqual({
      code: 2,
      first: "worker needs the host's token: --token, YUKTA_WORKER_TOKEN or yukta.workers.token",
    });
    expect(await run([...url, '--pool', 'bad pool'])).toEqual({
      code: 2,
      first: '--pool "bad pool": letters, digits and . _ : - (at most 128, starting with a letter or digit)',
    });
    expect(await run([...url, '--pool', 'p', '--slots', '0'])).toEqual({ code: 2, first: '--slots must be a whole number from 1 to 10000, not "0"' });
    expect(await run([...url, '--pool', 'p', '--allow', 'NOPE'])).toEqual({ code: 2, first: '--allow NOPE: this worker has no plugin of that type' });
    expect(await run([...url, '--pool', 'p', '--set', 'yukta.workers.tls.cert=c.pem'])).toEqual({
      code: 2,
      first: 'cannot start: setting yukta.workers.tls.cert needs yukta.workers.tls.key: a certificate goes with its key',
    });
  });
});
