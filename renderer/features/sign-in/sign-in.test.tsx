// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStudioClient } from '../../../shared/api/client';
import { EVENTS_TICKET_HTTP_PATH } from '../../../shared/api/contract';
import { createCredentials, API_KEY_STORAGE_KEY, type KeyStorage } from '../../api/credentials';
import { createHttpTransport, type EventSourceLike } from '../../api/http-transport';
import { AccountBadge } from './AccountBadge';
import { SignInGate } from './SignInGate';

afterEach(cleanup);

const RIGHT = 'operator-key-0123456789';

function memoryStorage(): KeyStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A server with one OPERATOR key: whoami and the ticket answer 401 to anything else. */
function keyServer() {
  const calls: Array<{ url: string; authorization: string | null }> = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const authorization = headers.get('authorization');
    calls.push({ url: String(url), authorization });
    if (authorization !== `Bearer ${RIGHT}`)
      return json(401, { error: { code: 'UNAUTHORIZED', message: authorization ? 'the API key is not valid' : 'an API key is required' } });
    if (String(url) === EVENTS_TICKET_HTTP_PATH) return json(200, { ticket: `t${calls.length}`, expiresInSeconds: 30 });
    return json(200, { actor: 'key:ops', role: 'OPERATOR', sessions: null, keysRequired: true });
  });
  return { fetch, calls };
}

class FakeEventSource implements EventSourceLike {
  static opened: FakeEventSource[] = [];
  listeners = new Map<string, (e: MessageEvent) => void>();
  readyState = 1;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (e: MessageEvent) => void) {
    this.listeners.set(type, listener);
  }
  close() {
    this.closed = true;
  }
  /** The browser gave the stream up (a 401 on its reconnect, with the used ticket). */
  giveUp() {
    this.readyState = 2;
    this.listeners.get('error')?.(new MessageEvent('error'));
  }
}

function setup() {
  const server = keyServer();
  const storage = memoryStorage();
  const credentials = createCredentials(storage);
  const client = createStudioClient(
    createHttpTransport({
      fetch: server.fetch as unknown as typeof fetch,
      credentials,
      createEventSource: (url) => new FakeEventSource(url),
      reopenDelayMs: 5,
    }),
  );
  return { server, storage, credentials, client };
}

describe('SEC-01 browser sign-in: the studio asks for a key, keeps it in the tab, sends it as Bearer', () => {
  it('shows the sign-in screen without a key; a wrong key says so; the right key opens the studio with the role shown', async () => {
    const { server, storage, credentials, client } = setup();
    const signedOut = vi.fn();
    render(
      <SignInGate client={client} credentials={credentials} onSignedOut={signedOut}>
        {(prompted) => (
          <div data-testid="studio" data-prompted={String(prompted)}>
            <AccountBadge />
          </div>
        )}
      </SignInGate>,
    );
    await screen.findByTestId('sign-in-dialog');
    expect(screen.queryByTestId('sign-in-error')).toBeNull(); // no key yet: nothing was wrong

    fireEvent.change(screen.getByTestId('sign-in-key'), { target: { value: 'not-the-key-at-all' } });
    fireEvent.submit(screen.getByTestId('sign-in-key').closest('form')!);
    expect((await screen.findByTestId('sign-in-error')).textContent).toBe('the API key is not valid.');
    expect(storage.map.has(API_KEY_STORAGE_KEY)).toBe(false); // a refused key is not kept

    fireEvent.change(screen.getByTestId('sign-in-key'), { target: { value: RIGHT } });
    fireEvent.submit(screen.getByTestId('sign-in-key').closest('form')!);
    await screen.findByTestId('studio');
    expect(screen.getByTestId('studio').dataset['prompted']).toBe('true');
    expect(screen.getByTestId('account-role').textContent).toBe('OPERATOR');
    expect(storage.map.get(API_KEY_STORAGE_KEY)).toBe(RIGHT);
    expect(server.calls.at(-1)).toEqual({ url: '/api/auth/whoami', authorization: `Bearer ${RIGHT}` });

    fireEvent.click(screen.getByTestId('sign-out'));
    expect(storage.map.has(API_KEY_STORAGE_KEY)).toBe(false);
    expect(signedOut).toHaveBeenCalledTimes(1);
  });

  it('a key kept in the tab signs in at once; one the server stops accepting brings the screen back', async () => {
    const { storage, credentials, client } = setup();
    storage.setItem(API_KEY_STORAGE_KEY, RIGHT);
    render(
      <SignInGate client={client} credentials={credentials}>
        {() => <div data-testid="studio" />}
      </SignInGate>,
    );
    await screen.findByTestId('studio');
    act(() => credentials.rejected('the API key is not valid'));
    expect((await screen.findByTestId('sign-in-error')).textContent).toBe('The server no longer accepts this key: the API key is not valid.');
    expect(storage.map.has(API_KEY_STORAGE_KEY)).toBe(false);
  });

  it('the event stream opens with a single-use ticket from a POST, never the key in its URL, and reopens with a new ticket', async () => {
    FakeEventSource.opened = [];
    const { server, storage, client } = setup();
    storage.setItem(API_KEY_STORAGE_KEY, RIGHT);
    const unsubscribe = client.subscribe({ executionId: 'r1' }, () => undefined);
    await waitFor(() => expect(FakeEventSource.opened).toHaveLength(1));
    const first = FakeEventSource.opened[0]!;
    expect(first.url).toMatch(/^\/api\/events\/stream\?executionId=r1&ticket=t\d+$/);
    expect(server.calls.find((c) => c.url === EVENTS_TICKET_HTTP_PATH)?.authorization).toBe(`Bearer ${RIGHT}`);
    first.giveUp();
    await waitFor(() => expect(FakeEventSource.opened).toHaveLength(2));
    expect(first.closed).toBe(true);
    expect(FakeEventSource.opened[1]!.url).not.toBe(first.url); // a fresh ticket
    for (const source of FakeEventSource.opened) expect(source.url).not.toContain(RIGHT);
    unsubscribe();
    expect(FakeEventSource.opened[1]!.closed).toBe(true);
  });
});
