import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../engine/test-support/postgres-test-database';
import { runCrashSoak, type SoakTallies } from '../test-support/crash-soak';

/** The promises kept (every must-be-0 tally 0, in one object so a failure shows them all) and that the checks had something to check. */
function expectPromisesKept(t: SoakTallies, kills: number): void {
  expect({
    lost: t.lost,
    duplicated: t.duplicated,
    leftRunning: t.leftRunning,
    resumedTwice: t.resumedTwice,
    reexecuted: t.reexecuted,
    integrityFailures: t.integrityFailures,
  }).toEqual({ lost: 0, duplicated: 0, leftRunning: 0, resumedTwice: 0, reexecuted: 0, integrityFailures: 0 });
  expect(t.iterations).toBe(kills);
  expect(t.integrityChecks).toBe(kills + 1);
  // Kills landed mid-request and mid-run, keys were re-sent, runs resumed past end markers.
  expect(t.acknowledged).toBeGreaterThan(50);
  expect(t.unacknowledged).toBeGreaterThan(0);
  expect(t.abortedByKill).toBeGreaterThan(10);
  expect(t.keysResent).toBeGreaterThanOrEqual(t.acknowledged);
  expect(t.resumed).toBeGreaterThan(10);
  expect(t.markedNodesSkipped).toBeGreaterThan(t.resumed);
}

describe('DUR-03 kill -9 harness: the host as a child process, SIGKILLed at random moments', () => {
  it('50 kills: no acknowledged start lost, none run twice for a key, no run left RUNNING, no end-marked node re-executed, integrity ok', async () => {
    const t = await runCrashSoak({ iterations: 50, seed: 8 });
    console.log(`DUR-03 kill -9: ${JSON.stringify(t)}`);
    expectPromisesKept(t, 50);
  }, 600_000);

  it('notices a lost start: with the memory store (no durability) the acknowledged starts are gone after the kill', async () => {
    const t = await runCrashSoak({ iterations: 2, seed: 3, store: 'memory', startsPerLife: [4, 4], killWindowMs: [300, 300] });
    expect(t.acknowledged).toBeGreaterThan(0);
    expect(t.lost).toBeGreaterThanOrEqual(t.acknowledged);
  }, 300_000);
});

describe('DUR-04 kill -9 harness on PostgreSQL: the host as a child process on a real server, SIGKILLed at random moments', () => {
  it('50 kills: no acknowledged start lost, none run twice for a key, no run left RUNNING, no end-marked node re-executed, indexes sound (amcheck)', async () => {
    const t = await runCrashSoak({ iterations: 50, seed: 17, store: 'postgres', postgresUrl: (await testDatabase()).url });
    console.log(`DUR-04 kill -9 on PostgreSQL: ${JSON.stringify(t)}`);
    expectPromisesKept(t, 50);
  }, 900_000);
});
