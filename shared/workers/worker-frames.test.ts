import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeFrame } from './worker-frames';
import { HostToWorker, WORKER_PROTOCOL_VERSION, WorkerToHost } from './worker-protocol';

const hello = { t: 'HELLO', protocol: WORKER_PROTOCOL_VERSION, name: 'w1', pool: 'p', allow: ['TRANSFORM'], slots: 2, window: 8, version: '0.1.0' };

describe('SCL-01 protocol frames', () => {
  it('reads a batch of valid messages and refuses what is not JSON, not a batch, too deep or not a message', () => {
    expect(decodeFrame(encodeFrame([hello, { t: 'RENEW', draining: false }]), WorkerToHost, 4)).toEqual({
      ok: true,
      messages: [hello, { t: 'RENEW', draining: false }],
    });
    expect(decodeFrame('{"t":', WorkerToHost, 4)).toMatchObject({ ok: false, code: 1007 });
    expect(decodeFrame('{"t":"RENEW","draining":false}', WorkerToHost, 4)).toEqual({
      ok: false,
      code: 1007,
      reason: 'a frame must be a JSON array of 1 to 1024 messages',
    });
    expect(decodeFrame('[]', WorkerToHost, 4)).toMatchObject({ ok: false, code: 1007 });
    // Four levels in the payload pass; a fifth is refused (policy).
    const output = (payload: unknown) => encodeFrame([{ t: 'OUTPUT', s: 1, out: { payload } }]);
    expect(decodeFrame(output({ a: { b: { c: [1] } } }), WorkerToHost, 4)).toMatchObject({ ok: true });
    expect(decodeFrame(output({ a: { b: { c: [[1]] } } }), WorkerToHost, 4)).toEqual({
      ok: false,
      code: 1008,
      reason: 'JSON nested deeper than 4 (yukta.execution.max-depth)',
    });
    expect(decodeFrame(encodeFrame([{ t: 'OUTPUT', s: 0, out: { payload: 1 } }]), WorkerToHost, 4)).toMatchObject({
      ok: false,
      code: 1007,
      reason: expect.stringMatching(/^message 0 at s: /),
    });
    expect(decodeFrame(encodeFrame([{ t: 'START', s: 1 }]), WorkerToHost, 4)).toMatchObject({ ok: false, code: 1007 });
    expect(decodeFrame(encodeFrame([{ t: 'CANCEL', s: 3, reason: 'stop' }]), HostToWorker, 4)).toMatchObject({ ok: true });
  });
});
