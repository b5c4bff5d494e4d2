// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import type { StudioEvent } from '../../shared/events/events';
import { createEventCoalescer } from './event-coalescer';

function nodeStatus(seq: number, nodeId = 'a'): StudioEvent {
  return { type: 'NODE_STATUS', seq, executionId: 'run-1', at: seq, nodeId, status: 'RUNNING', counts: { received: seq, emitted: 0 } };
}

/** A hand-driven animation frame: callbacks run only when the test says the frame happens. */
function manualFrames() {
  const queue: Array<() => void> = [];
  return {
    schedule: (cb: () => void) => void queue.push(cb),
    get pending() {
      return queue.length;
    },
    frame() {
      const due = queue.splice(0);
      for (const cb of due) cb();
    },
  };
}

describe('OBS-01 event coalescer (at most one update per animation frame)', () => {
  it('applies N batches that arrive before a frame in one call, in arrival order', () => {
    const frames = manualFrames();
    const apply = vi.fn();
    const coalescer = createEventCoalescer(apply, frames.schedule);
    const batches = Array.from({ length: 50 }, (_, b) => [nodeStatus(b * 2), nodeStatus(b * 2 + 1)]);
    for (const batch of batches) coalescer.push(batch);

    expect(apply).not.toHaveBeenCalled();
    expect(frames.pending).toBe(1); // one frame requested, not one per batch
    frames.frame();
    expect(apply).toHaveBeenCalledTimes(1);
    expect(apply.mock.calls[0]![0].map((e: StudioEvent) => e.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('schedules a new frame for batches arriving after the previous frame ran', () => {
    const frames = manualFrames();
    const apply = vi.fn();
    const coalescer = createEventCoalescer(apply, frames.schedule);
    coalescer.push([nodeStatus(1)]);
    frames.frame();
    coalescer.push([nodeStatus(2)]);
    coalescer.push([nodeStatus(3)]);
    frames.frame();
    expect(apply).toHaveBeenCalledTimes(2);
    expect(apply.mock.calls[1]![0]).toHaveLength(2);
  });

  it('ignores empty batches and stops after dispose', () => {
    const frames = manualFrames();
    const apply = vi.fn();
    const coalescer = createEventCoalescer(apply, frames.schedule);
    coalescer.push([]);
    expect(frames.pending).toBe(0);
    coalescer.push([nodeStatus(1)]);
    coalescer.dispose();
    frames.frame();
    expect(apply).not.toHaveBeenCalled();
  });

  it('uses requestAnimationFrame by default', () => {
    const raf = vi.spyOn(globalThis, 'requestAnimationFrame').mockImplementation((cb) => {
      cb(0);
      return 1;
    });
    const apply = vi.fn();
    createEventCoalescer(apply).push([nodeStatus(1)]);
    expect(raf).toHaveBeenCalledTimes(1);
    expect(apply).toHaveBeenCalledTimes(1);
    raf.mockRestore();
  });
});
