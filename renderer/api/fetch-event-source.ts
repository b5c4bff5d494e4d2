import type { EventSourceLike } from './http-transport';

/** Wait before reconnecting a dropped stream (the server sends the current state again on connect). */
const RETRY_MS = 2000;

/**
 * An event stream read with `fetch` (STU-08): unlike `EventSource` it can send headers, which a team
 * server's `Authorization: Bearer <key>` needs, and it reads the desktop app's same-origin forwarding
 * (`app://studio/remote/…`). Parses `event:` / `data:` fields, skips comments, reconnects when dropped.
 */
export function fetchEventSource(
  url: string,
  headers: Readonly<Record<string, string>> = {},
  doFetch: typeof fetch = (i, init) => fetch(i, init),
): EventSourceLike {
  const listeners = new Map<string, (event: MessageEvent) => void>();
  const controller = new AbortController();
  let closed = false;
  const dispatch = (block: string) => {
    let type = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length) listeners.get(type)?.(new MessageEvent(type, { data: data.join('\n') }));
  };
  const readOnce = async () => {
    const response = await doFetch(url, { headers: { ...headers, accept: 'text/event-stream' }, signal: controller.signal });
    if (!response.ok || !response.body) throw new Error(`event stream answered HTTP ${response.status}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      const blocks = buffer.split(/\r?\n\r?\n/);
      buffer = blocks.pop() ?? '';
      for (const block of blocks) dispatch(block);
    }
  };
  void (async () => {
    while (!closed) {
      await readOnce().catch(() => undefined);
      if (!closed) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  })();
  return {
    addEventListener: (type, listener) => void listeners.set(type, listener),
    close() {
      closed = true;
      controller.abort();
    },
  };
}
