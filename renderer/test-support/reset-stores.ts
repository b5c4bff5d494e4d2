import { useDebug } from '../store/debug-store';
import { useHa } from '../store/ha-store';
import { useInbox } from '../store/inbox-store';
import { useLive } from '../store/live-store';
import { useProblems } from '../store/problems-store';
import { clearLogs, useRunFeed } from '../store/run-feed-store';
import { useStudio } from '../store/studio-store';
import { useWorkers } from '../store/workers-store';

const initial = {
  studio: useStudio.getState(),
  live: useLive.getState(),
  problems: useProblems.getState(),
  debug: useDebug.getState(),
  inbox: useInbox.getState(),
  feed: useRunFeed.getState(),
  workers: useWorkers.getState(),
  ha: useHa.getState(),
};

/** Puts the app's singleton stores back to their first state (tests share one module graph). */
export function resetStores(): void {
  useStudio.setState(initial.studio, true);
  useLive.setState(initial.live, true);
  useLive.getState().recent.clear();
  useProblems.setState(initial.problems, true);
  useDebug.setState(initial.debug, true);
  useInbox.setState(initial.inbox, true);
  useRunFeed.setState(initial.feed, true);
  useWorkers.setState(initial.workers, true);
  useHa.setState(initial.ha, true);
  clearLogs();
}

/** A hand-driven animation frame for the event coalescer: nothing runs until `frame()`. */
export function manualFrames() {
  const queue: Array<() => void> = [];
  return {
    schedule: (cb: () => void) => void queue.push(cb),
    get pending() {
      return queue.length;
    },
    frame() {
      for (const cb of queue.splice(0)) cb();
    },
  };
}
