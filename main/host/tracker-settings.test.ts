import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../engine/index';
import { closeHosts, greeter, openHost } from './host-test-support';
import { loadHostSettings, parseHostSettings } from './host-settings';

afterEach(closeHosts);

describe('OBS-01 tracker settings', () => {
  it('reads yukta.tracker.cleanup-ttl and yukta.tracker.max-sessions from the environment; defaults 10 min and off', () => {
    const settings = loadHostSettings(null, { YUKTA_TRACKER_CLEANUP_TTL: '30000', YUKTA_TRACKER_MAX_SESSIONS: '2' });
    expect(settings['yukta.tracker.cleanup-ttl']).toBe(30_000);
    expect(settings['yukta.tracker.max-sessions']).toBe(2);
    const defaults = parseHostSettings({});
    expect(defaults['yukta.tracker.cleanup-ttl']).toBe(600_000);
    expect(defaults['yukta.tracker.max-sessions']).toBe(0);
    expect(() => parseHostSettings({ 'yukta.tracker.max-session': 1 })).toThrow(/unknown setting "yukta.tracker.max-session"/);
  });

  it('the host gives them to the engine: finished runs leave live state after the TTL, sessions beyond the cap are evicted', async () => {
    const clock = new ManualClock(0);
    const { host, api } = openHost({ settings: parseHostSettings({ 'yukta.tracker.cleanup-ttl': 1000, 'yukta.tracker.max-sessions': 1 }), engine: { clock } });
    await api['workflows.save']({ session: 'one', definition: greeter() });
    await api['workflows.save']({ session: 'two', definition: greeter() });
    const a = (await api['runs.start']({ session: 'one', workflowId: 'hello', payload: { name: 'a' } })).executionId;
    await host.engine.waitForRun(a);
    expect(host.engine.trackerState.isLive(a)).toBe(true);
    const b = (await api['runs.start']({ session: 'two', workflowId: 'hello', payload: { name: 'b' } })).executionId;
    await host.engine.waitForRun(b);
    expect(host.engine.trackerState.liveSessions()).toEqual(['two']);
    expect(host.engine.trackerState.isLive(a)).toBe(false);
    clock.advance(1000);
    expect(host.engine.trackerState.isLive(b)).toBe(false);
    expect((await api['runs.get']({ executionId: b })).status).toBe('SUCCESS');
  });
});
