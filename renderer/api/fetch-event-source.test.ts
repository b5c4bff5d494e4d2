import { describe, expect, it } from 'vitest';
import { fetchEventSource } from './fetch-event-source';

/** A response whose body arrives in the given chunks (a block may be split anywhere). */
function streamed(chunks: string[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

describe("STU-08 the event stream read with fetch (a team server's key as a header)", () => {
  it('sends the headers, parses event/data blocks split across chunks, skips comments and other events', async () => {
    const seen: Array<{ url: string; headers: Record<string, string> }> = [];
    const got: string[] = [];
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const source = fetchEventSource('https://team.example/api/events/stream', { authorization: 'Bearer k' }, async (input, init) => {
      seen.push({ url: String(input), headers: init?.headers as Record<string, string> });
      return streamed([': connected\n\n', 'event: batch\ndata: [1,', '2]\n\nevent: other\ndata: x\n\n', 'event: batch\r\ndata: [3]\r\n\r\n']);
    });
    source.addEventListener('batch', (e) => {
      got.push(String(e.data));
      if (got.length === 2) done();
    });
    await finished;
    source.close();
    expect(got).toEqual(['[1,2]', '[3]']);
    expect(seen[0]).toEqual({ url: 'https://team.example/api/events/stream', headers: { authorization: 'Bearer k', accept: 'text/event-stream' } });
  });
});
