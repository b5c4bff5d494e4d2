import { afterEach, describe, expect, it } from 'vitest';
import { parseHostSettings } from '../host/host-settings';
import { StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from './http-server';
import { StreamTickets, TICKET_TTL_SECONDS } from './stream-tickets';
import { helloWorkflow } from './test-workflows';

const VIEWER = 'viewer-key-0123456789';
const ADMIN = 'admin-key-0123456789';
const open: Array<{ host: StudioHost; server: StudioHttpServer }> = [];

afterEach(async () => {
  for (const { host, server } of open.splice(0)) {
    await server.close();
    await host.close();
  }
});

async function serve() {
  const settings = parseHostSettings({
    'yukta.api-keys': [
      { name: 'viewer', key: VIEWER, role: 'VIEWER' },
      { name: 'admin', key: ADMIN, role: 'ADMIN' },
    ],
  });
  const host = new StudioHost({ settings, env: {} });
  const server = await createHttpServer({ host, bind: { port: 0 } });
  open.push({ host, server });
  const { url } = await server.listen();
  return { host, url };
}

async function ticket(url: string, key: string | null): Promise<Response> {
  return fetch(`${url}/api/events/ticket`, { method: 'POST', headers: key ? { authorization: `Bearer ${key}` } : {} });
}

/** Opens the stream and reads until the first batch (or the first non-200 answer). */
async function firstBatch(url: string, query: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${url}/api/events/stream?${query}`);
  if (res.status !== 200) return { status: res.status, text: await res.text() };
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes('event: batch')) text += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  return { status: 200, text };
}

describe('SEC-01 the event stream without a key in any URL: single-use tickets', () => {
  it('a key holder POSTs for a ticket; the stream opens with it once; live events arrive; a reused ticket is 401', async () => {
    const { url } = await serve();
    expect((await fetch(`${url}/api/events/stream`)).status).toBe(401); // with keys set, no key, no stream
    expect((await ticket(url, null)).status).toBe(401);
    expect((await ticket(url, 'not-a-key-at-all-000')).status).toBe(401);
    const issued = await ticket(url, VIEWER);
    expect(issued.status).toBe(200);
    expect(issued.headers.get('cache-control')).toBe('no-store');
    const { ticket: value, expiresInSeconds } = (await issued.json()) as { ticket: string; expiresInSeconds: number };
    expect(value).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(expiresInSeconds).toBe(TICKET_TTL_SECONDS);
    expect(value).not.toContain(VIEWER);

    const stream = fetch(`${url}/api/events/stream?ticket=${value}`);
    const res = await stream;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    // An event made by someone else arrives on the ticket holder's stream.
    const headers = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
    await fetch(`${url}/api/workflows`, { method: 'POST', headers, body: JSON.stringify({ definition: helloWorkflow() }) });
    await fetch(`${url}/api/workflow/start`, { method: 'POST', headers, body: JSON.stringify({ workflowId: 'hello', payload: { name: 'Ada' } }) });
    let text = '';
    while (!text.includes('EXECUTION_STATUS')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();

    const again = await firstBatch(url, `ticket=${value}`);
    expect(again.status).toBe(401);
    expect(JSON.parse(again.text)).toEqual({
      error: { code: 'UNAUTHORIZED', message: 'the event stream ticket is unknown, used or expired: POST /api/events/ticket for a new one', path: 'ticket' },
    });
  });

  it('a header key still opens the stream directly (curl, scripts)', async () => {
    const { url } = await serve();
    const res = await fetch(`${url}/api/events/stream`, { headers: { authorization: `Bearer ${VIEWER}` } });
    expect(res.status).toBe(200);
    await res.body!.cancel();
  });
});

describe('SEC-01 stream tickets: single use, 30 s, bounded', () => {
  it('expires after its time, works once, carries the caller it was issued to', () => {
    let now = 1_000_000;
    const tickets = new StreamTickets(() => now);
    const caller = { actor: 'key:viewer', role: 'VIEWER' as const };
    const a = tickets.issue(caller).ticket;
    const b = tickets.issue(caller).ticket;
    expect(a).not.toBe(b);
    expect(tickets.redeem(a)).toEqual(caller);
    expect(tickets.redeem(a)).toBeNull();
    now += TICKET_TTL_SECONDS * 1000;
    expect(tickets.redeem(b)).toBeNull();
    expect(tickets.redeem('made-up')).toBeNull();
  });

  it('holds at most 1000 waiting tickets: the oldest goes first', () => {
    const tickets = new StreamTickets(() => 0);
    const first = tickets.issue({ actor: 'a', role: 'VIEWER' }).ticket;
    for (let i = 0; i < 1000; i++) tickets.issue({ actor: 'a', role: 'VIEWER' });
    expect(tickets.size).toBe(1000);
    expect(tickets.redeem(first)).toBeNull();
  });
});
