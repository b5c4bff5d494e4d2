// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkflowDefinition } from '../../../shared/workflow/definition.schema';
import type { HaStatus } from '../../../shared/api/ha.schema';
import { App } from '../../App';
import { createFakeStudioClient, storedWorkflow } from '../../test-support/fake-studio-client';
import { manualFrames, resetStores } from '../../test-support/reset-stores';

const chain = WorkflowDefinition.parse({
  workflowId: 'hello',
  nodes: [
    { nodeId: 'start', type: 'API_TRIGGER', position: { x: 0, y: 0 } },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL', position: { x: 250, y: 0 } },
  ],
  edges: [{ source: 'start', target: 'print', sourcePort: 'out' }],
});

const PAIR = {
  mode: 'postgres',
  self: 'host-b',
  fence: null,
  leaseMs: 15_000,
  stepDowns: { expired: 0, lost: 0, fenced: 0, released: 0 },
  refusedWrites: 0,
} as const;
const STANDBY: HaStatus = { ...PAIR, role: 'standby', leader: { name: 'host-a', url: 'http://host-a:4310' } };
const LEADER: HaStatus = { ...PAIR, role: 'leader', self: 'host-a', fence: 3, leader: { name: 'host-a', url: 'http://host-a:4310' } };

beforeEach(() => {
  resetStores();
  window.history.replaceState(null, '', '#/w/default/hello');
});
afterEach(cleanup);

async function openApp(status: HaStatus | null) {
  const fake = createFakeStudioClient([storedWorkflow(chain)]);
  if (status) fake.ha.status = status;
  render(<App client={fake.client} schedule={manualFrames().schedule} />);
  await screen.findByTestId('palette-item-API_TRIGGER');
  return fake;
}

describe('SCL-02 the studio on a host of an active/standby pair', () => {
  it('a standby shows "Standby (read-only) — leader is <host>" and disables Run, Save and the run controls with the reason', async () => {
    const fake = await openApp(STANDBY);
    const badge = await screen.findByTestId('leader-badge');
    expect(badge.textContent).toContain('Standby (read-only) — leader is host-a (http://host-a:4310)');
    const reason = 'This host is a standby (read-only) — leader is host-a (http://host-a:4310). Run, save and control on the leader.';
    expect(screen.getByTestId('write-controls').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('run-button').getAttribute('title')).toBe(reason);
    expect(screen.getByTestId('save-button').getAttribute('title')).toBe(reason);
    // F5 and Ctrl/Cmd+S are refused too, with the same reason, and nothing reaches the host.
    fireEvent.keyDown(window, { key: 'F5' });
    expect((await screen.findByTestId('run-error')).textContent).toBe(reason);
    expect(fake.client['runs.start']).not.toHaveBeenCalled();
  });

  it('the leader shows "Leader" and keeps Run and Save enabled', async () => {
    await openApp(LEADER);
    expect((await screen.findByTestId('leader-badge')).textContent).toContain('Leader');
    expect(screen.getByTestId('write-controls').hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('run-button').getAttribute('title')).toBe('Save if needed and run with an empty payload (F5)');
  });

  it('a single server shows no badge', async () => {
    const fake = await openApp(null);
    await waitFor(() => expect(fake.client['ha.status']).toHaveBeenCalled());
    expect(screen.queryByTestId('leader-badge')).toBeNull();
    expect(screen.getByTestId('write-controls').hasAttribute('disabled')).toBe(false);
  });
});
