import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../../shared/workers/worker-frames';
import { WORKER_PROTOCOL_VERSION } from '../../shared/workers/worker-protocol';
import { builtinPlugins } from '../plugins/builtin';
import { ManualClock } from '../runtime/clock';
import { chain, gate, harness, processor, recorder } from '../test-support/engine-harness';
import { connectInProcess } from '../test-support/worker-pair';
import { WorkerRegistry } from './worker-registry';

const hello = { t: 'HELLO', protocol: WORKER_PROTOCOL_VERSION, name: 'w1', pool: 'p', allow: ['TRANSFORM'], slots: 2, window: 8, version: '0.1.0' };

/** A link that records what the host wrote and how it closed. */
function fakeLink() {
  const sent: unknown[][] = [];
  const closes: Array<{ code: number; reason: string }> = [];
  return {
    peer: '127.0.0.1:5555',
    sent,
    closes,
    send: (frame: string) => sent.push(JSON.parse(frame) as unknown[]),
    close: (code: number, reason: string) => closes.push({ code, reason }),
  };
}

function registry(options: { isLeader?: () => boolean } = {}) {
  const lines: string[] = [];
  const reg = new WorkerRegistry({ clock: new ManualClock(0), maxDepth: 4, log: (level, text) => lines.push(`${level}: ${text}`), ...options });
  return { reg, lines };
}

describe('SCL-01 registration: refused connections leave the host unharmed', () => {
  it('welcomes a HELLO with the lease, window and message limits', () => {
    const { reg, lines } = registry();
    const link = fakeLink();
    reg.connect(link).receive(encodeFrame([hello]));
    expect(link.sent).toEqual([[{ t: 'WELCOME', protocol: 1, name: 'w1', leaseMs: 15_000, window: 16, maxMessageBytes: 10 * 1024 * 1024, maxDepth: 4 }]]);
    expect(lines).toEqual(['info: worker "w1" (pool p, 2 slot(s), allows TRANSFORM; version 0.1.0) registered from 127.0.0.1:5555']);
    expect(reg.view().workers).toMatchObject([{ name: 'w1', pool: 'p', slots: 2, free: 2, draining: false, version: '0.1.0', peer: '127.0.0.1:5555' }]);
  });

  it('refuses another protocol version, and a standby refuses every registration with not_leader', () => {
    const old = registry();
    const link = fakeLink();
    old.reg.connect(link).receive(encodeFrame([{ ...hello, protocol: 2 }]));
    expect(link.sent).toEqual([[{ t: 'REFUSED', reason: 'protocol_version', message: 'this host speaks worker protocol 1, the worker 2' }]]);
    expect(link.closes).toEqual([{ code: 4001, reason: 'protocol_version' }]);
    expect(old.reg.view().workers).toEqual([]);
    const standby = registry({ isLeader: () => false });
    const second = fakeLink();
    standby.reg.connect(second).receive(encodeFrame([hello]));
    expect(second.sent).toEqual([[{ t: 'REFUSED', reason: 'not_leader', message: 'this host is a standby: connect to the leader' }]]);
    expect(standby.lines).toEqual(['warn: worker "w1" (pool p) from 127.0.0.1:5555 refused: not_leader: this host is a standby: connect to the leader']);
  });

  it('drops a connection that sends malformed, too deep or out-of-order frames, logging why, and keeps the others', () => {
    const { reg, lines } = registry();
    const good = fakeLink();
    reg.connect(good).receive(encodeFrame([{ ...hello, name: 'good' }]));
    const cases: Array<[string, number]> = [
      ['not json', 1007],
      [encodeFrame([{ t: 'RENEW', draining: false }]), 1008],
      [encodeFrame([{ t: 'OUTPUT', s: 1, out: { payload: [[[[[1]]]]] } }]), 1008],
      [encodeFrame([{ ...hello, name: 'x', slots: 0 }]), 1007],
    ];
    for (const [frame, code] of cases) {
      const link = fakeLink();
      reg.connect(link).receive(frame);
      expect(link.closes[0]?.code).toBe(code);
    }
    expect(lines.filter((l) => l.startsWith('warn: a worker connection from 127.0.0.1:5555 sent a refused frame: ')).length).toBe(4);
    expect(lines).toContain('warn: a worker connection from 127.0.0.1:5555 sent a refused frame: RENEW before HELLO; connection dropped');
    // A registered worker that breaks the protocol is dropped too, by name.
    const w2 = fakeLink();
    const session = reg.connect(w2);
    session.receive(encodeFrame([{ ...hello, name: 'w2' }]));
    session.receive(encodeFrame([{ t: 'COMPLETE', s: 99 }]));
    expect(w2.closes).toEqual([{ code: 1008, reason: 'message for stream 99, which was never started' }]);
    expect(reg.view().workers.map((w) => w.name)).toEqual(['good']);
  });
});

describe('SCL-01 back-pressure by credit, both ways', () => {
  it('a fast remote producer into a slow local consumer: the host never buffers more than the window, and the worker is paced', async () => {
    const many = processor('MANY', () => Array.from({ length: 1000 }, (_, i) => ({ payload: { i } })));
    const slowGate = gate();
    const slow = processor('SLOW', async (m) => {
      await slowGate.opened;
      return [{ payload: m.payload }];
    });
    const rec = recorder();
    const h = harness([many, slow, rec.plugin], { channelCapacity: 4, workers: { window: 8 } });
    const w = connectInProcess(h.engine, { name: 'w', pool: 'p', allow: ['MANY'], plugins: [many] });
    await w.welcomed;
    const definition = chain('paced', [
      { nodeId: 'remote', type: 'MANY', config: { engine: { placement: { pool: 'p' } } } },
      { nodeId: 'slow', type: 'SLOW' },
    ]);
    const id = await h.run(definition);
    for (let i = 0; i < 5; i++) await h.settle();
    const sentOutputs = () => w.sentByWorker.reduce((n, f) => n + (JSON.parse(f) as Array<{ t: string }>).filter((m) => m.t === 'OUTPUT').length, 0);
    const attempt = h.engine.workers.connected[0]!.attempts[0]!;
    // slow holds 1, its input channel 4, the remote node 1 in hand: what the worker sent is that plus the window.
    expect(attempt.maxBuffered).toBeLessThanOrEqual(8);
    expect(sentOutputs()).toBeLessThanOrEqual(6 + 8);
    expect(sentOutputs()).toBeGreaterThanOrEqual(6);
    slowGate.open();
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toEqual(Array.from({ length: 1000 }, (_, i) => ({ i })));
    expect(attempt.maxBuffered).toBeLessThanOrEqual(8);
  });

  it("a stream of many inputs to a slow worker: the host sends within the worker's window and waits for credit", async () => {
    const taken: number[] = [];
    const gates = Array.from({ length: 40 }, () => gate());
    const echo = processor('ECHO', async (m) => {
      const i = (m.payload as { i: number }).i;
      taken.push(i);
      await gates[i]!.opened;
      return [{ payload: m.payload }];
    });
    const h = harness([echo]);
    const w = connectInProcess(h.engine, { name: 'w', pool: 'p', allow: ['ECHO'], window: 4, plugins: [echo] });
    await w.welcomed;
    const worker = h.engine.workers.connected[0]!;
    const inputs = Array.from({ length: 40 }, (_, i) => ({ id: `m${i}`, payload: { i }, metadata: {}, headers: {} }));
    const ended: string[] = [];
    const hooks = { heartbeat: () => undefined, log: () => undefined, ended: (outcome: string) => ended.push(outcome) };
    const attempt = worker.open(
      { type: 'ECHO', config: {}, executionId: 'x', session: 's', workflowId: 'wf', nodeId: 'n', attempt: 1 },
      inputs,
      hooks,
      new AbortController().signal,
      0,
    );
    await h.settle();
    const inputsSent = () => w.sentByHost.reduce((n, f) => n + (JSON.parse(f) as Array<{ t: string }>).filter((m) => m.t === 'INPUT').length, 0);
    expect(taken).toEqual([0]);
    expect(inputsSent()).toBe(4); // the window: the worker has taken one, holds three
    const outputs: unknown[] = [];
    const reading = (async () => {
      for await (const out of attempt) outputs.push(out.payload);
    })();
    for (let i = 0; i < 40; i++) {
      gates[i]!.open();
      await h.settle();
      // A worker that got more than its window would break the connection; it never does.
      expect(inputsSent() - taken.length).toBeLessThanOrEqual(4);
    }
    await reading;
    expect(outputs).toEqual(inputs.map((m) => m.payload));
    expect(ended).toEqual(['SUCCESS']);
    expect(w.sentByWorker.some((f) => f.includes('"t":"CREDIT"'))).toBe(true);
  });
});

describe("SCL-01 heartbeats restart the node's idle clock (ENG-05)", () => {
  it('a remote DELAY longer than the idle timeout succeeds because it heartbeats; a silent one times out', async () => {
    const silent = processor('SILENT', async (m, ctx) => {
      await ctx.sleep(40_000);
      return [{ payload: m.payload }];
    });
    const h = harness([silent, recorder().plugin], { workers: { leaseMs: 3_600_000 } });
    const w = connectInProcess(h.engine, {
      name: 'w',
      pool: 'p',
      allow: ['DELAY', 'SILENT'],
      slots: 2,
      clock: h.clock,
      plugins: [...builtinPlugins(), silent],
    });
    await w.welcomed;
    const node = (type: string, config: Record<string, unknown>) => ({
      nodeId: 'remote',
      type,
      timeoutSeconds: 15,
      config: { ...config, engine: { placement: { pool: 'p' } } },
    });
    const beating = await h.run(chain('beats', [node('DELAY', { ms: 40_000 })]));
    const quiet = await h.run(chain('quiet', [node('SILENT', {})]));
    for (let t = 0; t < 45; t++) await h.clock.advanceAsync(1000);
    expect(await h.engine.waitForRun(beating)).toBe('SUCCESS');
    expect(await h.engine.waitForRun(quiet)).toBe('FAILURE');
    expect(h.engine.getRun(quiet).nodes.find((n) => n.nodeId === 'remote')).toMatchObject({ status: 'TIMED_OUT', error: { code: 'IDLE_TIMEOUT' } });
    expect(w.sentByWorker.some((f) => f.includes('"t":"HEARTBEAT"'))).toBe(true);
  });
});
