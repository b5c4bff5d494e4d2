import { describe, expect, it } from 'vitest';
import { createQuitGuard, quitChoiceOf, quitDialogOptions, type QuitChoice } from './quit-guard';

function guard(active: string[], answer: QuitChoice) {
  const asked: number[] = [];
  const stopped: string[] = [];
  const quit = createQuitGuard({
    activeRuns: async () => active,
    ask: async (count) => (asked.push(count), answer),
    stop: async (id, mode) => void stopped.push(`${id} ${mode}`),
  });
  return { quit, asked, stopped };
}

describe('STU-08 quitting with runs active asks Drain / Cancel / Kill / Keep running', () => {
  it('asks with the four buttons, Keep running as the cancel button', () => {
    const options = quitDialogOptions(2);
    expect(options.buttons).toEqual(['Drain', 'Cancel runs', 'Kill', 'Keep running']);
    expect(options.message).toBe('2 runs are still active. Stop them and quit?');
    expect(options.cancelId).toBe(3);
    expect([0, 1, 2, 3, 7].map(quitChoiceOf)).toEqual(['DRAIN', 'CANCEL', 'KILL', 'KEEP', 'KEEP']);
  });

  it('quits without asking when no run is active', async () => {
    const { quit, asked } = guard([], 'KEEP');
    expect(await quit.confirm()).toBe(true);
    expect(asked).toEqual([]);
  });

  for (const mode of ['DRAIN', 'CANCEL', 'KILL'] as const) {
    it(`${mode}: sends StopWorkflow ${mode} to every active run, then quits (and does not ask again)`, async () => {
      const { quit, asked, stopped } = guard(['r1', 'r2'], mode);
      expect(await quit.confirm()).toBe(true);
      expect(asked).toEqual([2]);
      expect(stopped).toEqual([`r1 ${mode}`, `r2 ${mode}`]);
      expect(await quit.confirm()).toBe(true);
      expect(asked).toEqual([2]);
    });
  }

  it('Keep running: nothing is stopped and the app stays; the next quit asks again', async () => {
    const { quit, asked, stopped } = guard(['r1'], 'KEEP');
    expect(await quit.confirm()).toBe(false);
    expect(quit.confirmed).toBe(false);
    expect(stopped).toEqual([]);
    expect(await quit.confirm()).toBe(false);
    expect(asked).toEqual([1, 1]);
  });

  it('asks once when two quits come together (closing the window and Cmd+Q)', async () => {
    const { quit, asked } = guard(['r1'], 'CANCEL');
    const [a, b] = await Promise.all([quit.confirm(), quit.confirm()]);
    expect([a, b]).toEqual([true, true]);
    expect(asked).toEqual([1]);
  });
});
