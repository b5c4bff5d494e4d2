/** Helpers for tests that drive the host through the StudioApi contract (not a test file itself). */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createStudioClient, type StudioClient } from '../../shared/api/client';
import { StudioApiError } from '../../shared/api/errors';
import type { Caller } from '../../shared/api/roles';
import { testDatabase } from '../../engine/test-support/postgres-test-database';
import { parseHostSettings } from './host-settings';
import { LoadedSettings } from './loaded-settings';
import { createMemoryTransport } from './memory-transport';
import { LOCAL_UI_CALLER, StudioHost, type StudioHostOptions } from './studio-host';

/** Hosts opened by `openHost`, closed by `closeHosts` (call it from afterEach). */
const open: StudioHost[] = [];

export function openHost(options: StudioHostOptions = {}, caller: Caller = LOCAL_UI_CALLER): { host: StudioHost; api: StudioClient } {
  const host = new StudioHost(options);
  open.push(host);
  return { host, api: clientOf(host, caller) };
}

/** The PostgreSQL schema of each data folder a test used, so reopening a folder finds its database again. */
const schemas = new Map<string, Promise<string>>();

/**
 * A host on any store kind, the `postgres` kind (DUR-04) included: that one on a schema of the test file's
 * database, one per data folder (the same again when a test reopens the folder).
 */
export async function openHostOn(options: StudioHostOptions = {}, caller: Caller = LOCAL_UI_CALLER): Promise<{ host: StudioHost; api: StudioClient }> {
  if (options.store !== 'postgres') return openHost(options, caller);
  const db = await testDatabase();
  const folder = options.dataDir ?? '';
  let schema = schemas.get(folder);
  if (!schema) schemas.set(folder, (schema = db.freshSchema()));
  const given = options.settings instanceof LoadedSettings ? options.settings.values : (options.settings ?? parseHostSettings({}));
  const settings = { ...given, 'yukta.postgres.url': db.url, 'yukta.postgres.schema': await schema, 'yukta.postgres.pool-size': 4 };
  const host = await StudioHost.open({ ...options, settings });
  open.push(host);
  return { host, api: clientOf(host, caller) };
}

export function clientOf(host: StudioHost, caller: Caller = LOCAL_UI_CALLER): StudioClient {
  return createStudioClient(createMemoryTransport(host, caller));
}

export async function closeHosts(): Promise<void> {
  await Promise.all(open.splice(0).map((h) => h.close()));
}

export function tempDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'yukta-host-'));
}

/** The StudioApiError a call fails with (fails the test when it succeeds). */
export async function failure(p: Promise<unknown>): Promise<StudioApiError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StudioApiError);
  return e as StudioApiError;
}

/** API_TRIGGER → TRANSFORM → CONSOLE_TERMINAL, with the greeting as a parameter to make versions. */
export function greeter(greeting = 'Hello', workflowId = 'hello') {
  return {
    workflowId,
    description: 'three nodes',
    nodes: [
      { nodeId: 'start', type: 'API_TRIGGER', position: { x: 0, y: 0 } },
      { nodeId: 'greet', type: 'TRANSFORM', config: { set: { greeting: `${greeting} \${payload.name}` } } },
      { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
    ],
    edges: [
      { source: 'start', target: 'greet' },
      { source: 'greet', target: 'print' },
    ],
  };
}

/** CRON_TRIGGER every hour (UTC), one catch-up run for fires missed while closed (RUN_ONCE), into the console. */
export const HOURLY_CRON_WORKFLOW = {
  workflowId: 'hourly',
  nodes: [
    { nodeId: 'cron', type: 'CRON_TRIGGER', config: { expression: '0 * * * *', timezone: 'UTC', missedFires: 'RUN_ONCE', payload: {} } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [{ source: 'cron', target: 'out' }],
};
