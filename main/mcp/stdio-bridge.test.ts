import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from '../http/http-server';
import { isolatedAbortFetch, mcpEndpoint } from './stdio-bridge';

let host: StudioHost;
let server: StudioHttpServer;
let url: string;

beforeAll(async () => {
  host = new StudioHost();
  server = await createHttpServer({ host, bind: { port: 0 } });
  url = (await server.listen()).url;
});

afterAll(async () => {
  await server.close();
  await host.close();
});

describe("EXT-04 the stdio bridge's HTTP side", () => {
  it('finds /mcp from a server address or takes the endpoint as given, and refuses what is not http(s)', () => {
    expect(mcpEndpoint('http://127.0.0.1:4310').href).toBe('http://127.0.0.1:4310/mcp');
    expect(mcpEndpoint('http://127.0.0.1:4310/').href).toBe('http://127.0.0.1:4310/mcp');
    expect(mcpEndpoint('https://studio.example/mcp').href).toBe('https://studio.example/mcp');
    expect(() => mcpEndpoint('127.0.0.1:4310')).toThrow('--url must be an http(s) address');
    expect(() => mcpEndpoint('not a url')).toThrow('--url must be an http(s) address such as http://127.0.0.1:4310, not "not a url"');
  });

  it("leaves no abort listener on the connection's signal after answered requests, but ties an event stream to it", async () => {
    const shared = new AbortController();
    for (let i = 0; i < 50; i++) {
      const response = await isolatedAbortFetch(`${url}/api/node-types`, { signal: shared.signal });
      expect(response.status).toBe(200);
      await response.json();
    }
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
    const stream = await isolatedAbortFetch(`${url}/api/events/stream`, { signal: shared.signal });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(1);
    const reader = stream.body!.getReader();
    await reader.read(); // ": connected"
    shared.abort();
    await expect(reader.read()).rejects.toThrow();
  });
});
