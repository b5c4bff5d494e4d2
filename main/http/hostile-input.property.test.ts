import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../host/host-test-support';
import { parseHostSettings } from '../host/host-settings';
import { StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from './http-server';

/**
 * SEC-03 / DUR-01 property: random deep, wide and odd JSON sent to start, save, signal, import and control
 * over real HTTP (fastify on a port, SQLite in a real data folder) never gets a 5xx, never wedges the host
 * (a normal start succeeds after every case) and loses nothing it acknowledged (every 200 is there after a
 * restart). The JSON is written as text, so values JSON.stringify cannot make (-0, 1e400, lone surrogates,
 * `__proto__` keys, 1 MiB strings) reach the server as a client would send them.
 */

const RUNS = Number(process.env.YUKTA_HOSTILE_RUNS ?? 300);
const MIB = 1024 * 1024;

// --- hostile JSON, as text ----------------------------------------------------------------------

const oddNumber = fc.constantFrom('1e308', '-1e308', '-0', '0.0', '5e-324', '1e400', '-1e400', '123456789012345678901234567890', '9007199254740993', '1E+2');
const number = fc.oneof(
  oddNumber,
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
);
const oddString = fc.constantFrom(
  '\ud800',
  '\udfff',
  'a\ud83d',
  '\udc00b',
  '\u0000',
  '\u001b[31m',
  '\u202eevil',
  '\u2028',
  '${payload.x}',
  '${env.HOME}',
  'decrypted:openai',
  '',
);
const text = fc.oneof(oddString, fc.string({ unit: 'binary', maxLength: 40 }));
/** Now and then a 1 MiB string (over the 1 MiB body limit: 413) or one just under it (accepted, and carried through a run). */
const stringToken = fc.oneof(
  { weight: 20, arbitrary: text.map((s) => JSON.stringify(s)) },
  { weight: 1, arbitrary: fc.constantFrom(`"${'x'.repeat(MIB)}"`, `"${'é'.repeat(500_000)}"`) },
);
const key = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '', 'a.b', '0', 'yukta.priority', 'x'.repeat(300)),
  text,
);
const smallLeaf = fc.oneof(
  number,
  text.map((t) => JSON.stringify(t)),
  fc.constantFrom('true', 'false', 'null'),
);
const leaf = fc.oneof(number, stringToken, fc.constantFrom('true', 'false', 'null'));

const { value } = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 6 }).map((items) => `[${items.join(',')}]`),
    fc.array(fc.tuple(key, tie('value')), { maxLength: 6 }).map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
}));

/** Deep: the value wrapped in 0–600 arrays or objects (the limit is 128). Wide: up to 20,000 items. */
const deep = fc
  .tuple(fc.integer({ min: 0, max: 600 }), fc.boolean(), value)
  .map(([levels, arrays, inner]) => (arrays ? `${'['.repeat(levels)}${inner}${']'.repeat(levels)}` : `${'{"a":'.repeat(levels)}${inner}${'}'.repeat(levels)}`));
const wide = fc.tuple(fc.integer({ min: 0, max: 20_000 }), smallLeaf).map(([n, item]) => `[${Array.from({ length: n }, () => item).join(',')}]`);
const hostile = fc.oneof({ weight: 4, arbitrary: value }, { weight: 3, arbitrary: deep }, { weight: 1, arbitrary: wide });
/** An object, as most fields want, or whatever else hostile came up with. */
const hostileObject = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(key, hostile).map(([k, v]) => `{${JSON.stringify(k)}:${v}}`) },
  { weight: 1, arbitrary: hostile },
);

const commandBody = fc.oneof(
  hostile.map((v) => `{"command":{"type":"ReplaceHeldMessage","nodeId":"wait","payload":${v}}}`),
  fc
    .tuple(text, text)
    .map(
      ([path, equals]) => `{"command":{"type":"SetBreakpoint","nodeId":"wait","path":${JSON.stringify(`payload.${path}`)},"equals":${JSON.stringify(equals)}}}`,
    ),
  hostileObject.map((v) => `{"command":${v}}`),
);

const hostileCase = fc.record({ start: hostileObject, save: hostileObject, signal: hostile, importConfig: hostileObject, command: commandBody });

// --- the server -----------------------------------------------------------------------------------

const PROBE = {
  workflowId: 'probe',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    { nodeId: 'shape', type: 'TRANSFORM', config: { set: { seen: '${payload}' }, mode: 'merge' } },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 't', target: 'shape' },
    { source: 'shape', target: 'print' },
  ],
};
const WAIT = {
  workflowId: 'wait',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    { nodeId: 'wait', type: 'WAIT_FOR_SIGNAL', config: { signal: 'go' } },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 't', target: 'wait' },
    { source: 'wait', target: 'print' },
  ],
};

interface Server {
  host: StudioHost;
  server: StudioHttpServer;
  url: string;
  warnings: string[];
  internal: unknown[];
}

async function serve(dataDir: string): Promise<Server> {
  const warnings: string[] = [];
  const internal: unknown[] = [];
  const host = new StudioHost({
    dataDir,
    store: 'sqlite',
    settings: parseHostSettings({}),
    env: {},
    onWarning: (m) => warnings.push(m),
    onInternalError: (e) => internal.push(e),
    engine: { scheduler: { limits: { shutdownTimeoutMs: 0 } } },
  });
  await host.ready;
  const server = await createHttpServer({ host, bind: { port: 0 } });
  return { host, server, url: (await server.listen()).url, warnings, internal };
}

async function send(s: Server, method: string, path: string, body?: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
  const raw = await res.text();
  return { status: res.status, json: raw ? (JSON.parse(raw) as Record<string, unknown>) : {} };
}

const opened: Server[] = [];
afterAll(async () => {
  for (const s of opened.splice(0)) {
    await s.server.close();
    await s.host.close();
  }
});

describe('SEC-03/DUR-01 property: hostile JSON over real HTTP never gets a 5xx, never wedges, loses nothing acknowledged', () => {
  it(`${RUNS} random cases × start, save, signal, import, control`, { timeout: 180_000 }, async () => {
    const dir = await tempDataDir();
    let s = await serve(dir);
    opened.push(s);
    for (const definition of [PROBE, WAIT]) expect((await send(s, 'POST', '/api/workflows', JSON.stringify({ definition }))).status).toBe(200);
    const acknowledged = { runs: [] as string[], versions: [] as Array<{ session: string; workflowId: string; version: string }> };
    const statuses = new Map<number, number>();
    let cases = 0;
    let requests = 0;
    const started = Date.now();
    const count = (status: number): number => {
      requests++;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      return status;
    };

    await fc.assert(
      fc.asyncProperty(hostileCase, async (c) => {
        cases++;
        const i = cases;
        const answers: Array<[string, number]> = [];
        const start = await send(s, 'POST', '/api/workflow/start', `{"workflowId":"probe","payload":${c.start}}`);
        answers.push(['start', count(start.status)]);
        if (start.status === 200) acknowledged.runs.push(start.json.executionId as string);

        const save = await send(
          s,
          'POST',
          '/api/workflows',
          `{"definition":{"workflowId":"h${i}","nodes":[{"nodeId":"t","type":"API_TRIGGER"},{"nodeId":"x","type":"TRANSFORM","config":{"set":${c.save}}}],"edges":[{"source":"t","target":"x"}]}}`,
        );
        answers.push(['save', count(save.status)]);
        if (save.status === 200) acknowledged.versions.push({ session: 'default', workflowId: `h${i}`, version: save.json.version as string });

        const imported = await send(
          s,
          'PUT',
          '/api/sessions/imp/config',
          `{"workflows":[{"workflowId":"i${i}","nodes":[{"nodeId":"t","type":"API_TRIGGER","config":${c.importConfig}}]}],"note":"case ${i}"}`,
        );
        answers.push(['import', count(imported.status)]);
        if (imported.status === 200)
          for (const w of imported.json.workflows as Array<{ workflowId: string; version: string }>)
            acknowledged.versions.push({ session: 'imp', workflowId: w.workflowId, version: w.version });

        // The wedge check: a normal start succeeds after every hostile request; its run waits for a signal.
        const normal = await send(s, 'POST', '/api/workflow/start', '{"workflowId":"wait","payload":{"n":1}}');
        answers.push(['normal start', count(normal.status)]);
        expect(normal.status).toBe(200);
        const waiting = normal.json.executionId as string;
        acknowledged.runs.push(waiting);

        const control = await send(s, 'POST', `/api/executions/${waiting}/control`, c.command);
        answers.push(['control', count(control.status)]);
        const signal = await send(s, 'POST', `/api/executions/${waiting}/signal`, `{"nodeId":"wait","decision":"APPROVE","data":${c.signal}}`);
        answers.push(['signal', count(signal.status)]);
        // A refused hostile signal leaves the run waiting: a plain one ends it (and shows control still works).
        if (signal.status !== 200) expect(count((await send(s, 'POST', `/api/executions/${waiting}/signal`, '{"nodeId":"wait"}')).status)).toBe(200);
        await s.host.engine.waitForRun(waiting);

        const fivexx = answers.filter(([, status]) => status >= 500);
        expect(fivexx).toEqual([]);
      }),
      { numRuns: RUNS, seed: Number(process.env.YUKTA_HOSTILE_SEED ?? 20261201), endOnFailure: true },
    );

    expect(s.internal).toEqual([]);
    expect(s.warnings).toEqual([]); // no store write failed or was dropped
    const elapsed = (Date.now() - started) / 1000;

    // Nothing acknowledged is lost, even across a restart of the host on the same data folder.
    await s.server.close();
    await s.host.close();
    opened.splice(opened.indexOf(s), 1);
    s = await serve(dir);
    opened.push(s);
    const missing: string[] = [];
    for (const id of acknowledged.runs) if ((await send(s, 'GET', `/api/executions/${id}`)).status !== 200) missing.push(id);
    for (const v of acknowledged.versions) {
      const versions = (await send(s, 'GET', `/api/workflows/${v.session}/${v.workflowId}/versions`)).json as unknown as Array<{ version: string }>;
      if (!Array.isArray(versions) || !versions.some((x) => x.version === v.version)) missing.push(`${v.workflowId}@${v.version}`);
    }
    expect(missing).toEqual([]);
    const byStatus = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}×${n}`)
      .join(', ');
    console.log(
      `SEC-03 hostile-input property: ${cases} cases, ${requests} requests in ${elapsed.toFixed(1)} s (${byStatus}); 0 5xx; ${acknowledged.runs.length} acknowledged runs and ${acknowledged.versions.length} saved versions all present after a restart`,
    );
  });
});
