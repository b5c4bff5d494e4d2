import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Status, TERMINAL_STATUSES, advanceStatus, isTerminal } from './status';

describe('ENG-06 status model (forward-only)', () => {
  it('moves forward from PENDING through RUNNING to a terminal status', () => {
    let s = advanceStatus('PENDING', 'QUEUED');
    expect(s).toBe('QUEUED');
    s = advanceStatus(s, 'RUNNING');
    expect(s).toBe('RUNNING');
    s = advanceStatus(s, 'SUCCESS');
    expect(s).toBe('SUCCESS');
  });

  it('ignores a step back', () => {
    expect(advanceStatus('RUNNING', 'PENDING')).toBe('RUNNING');
    expect(advanceStatus('RUNNING', 'QUEUED')).toBe('RUNNING');
  });

  it('ignores a second end', () => {
    expect(advanceStatus('FAILURE', 'SUCCESS')).toBe('FAILURE');
    expect(advanceStatus('SUCCESS', 'CANCELLED')).toBe('SUCCESS');
  });

  it('never leaves a terminal status, whatever the sequence (property)', () => {
    const statuses = Status.options;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...statuses), { minLength: 1, maxLength: 30 }), (seq) => {
        let current: Status = 'PENDING';
        let firstTerminal: Status | null = null;
        for (const next of seq) {
          current = advanceStatus(current, next);
          if (firstTerminal === null && isTerminal(current)) firstTerminal = current;
        }
        if (firstTerminal !== null) expect(current).toBe(firstTerminal);
      }),
    );
  });

  it('knows every terminal status', () => {
    for (const t of TERMINAL_STATUSES) expect(isTerminal(t)).toBe(true);
    expect(isTerminal('RUNNING')).toBe(false);
  });
});
