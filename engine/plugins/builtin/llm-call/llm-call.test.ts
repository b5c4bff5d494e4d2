import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { WorkflowDefinitionInput } from '../../../../shared/workflow/definition.schema';
import { chain, harness, type Harness } from '../../../test-support/engine-harness';
import { startFakeAnthropic, startFakeOpenAi, type FakeLlmServer } from '../../../test-support/fake-llm-servers';
import { definePlugin, type Plugin } from '../../contract';

const OPENAI_KEY = 'sk-canary-7d1e0b-openai';
const ANTHROPIC_KEY = 'sk-ant-canary-42c9f1';
let openai: FakeLlmServer;
let anthropic: FakeLlmServer;

beforeAll(async () => {
  openai = await startFakeOpenAi(OPENAI_KEY);
  anthropic = await startFakeAnthropic(ANTHROPIC_KEY);
});
afterAll(async () => {
  await openai.close();
  await anthropic.close();
});

/** A terminal that keeps payload and metadata. */
function sink(type = 'SINK') {
  const seen: Array<{ payload: unknown; metadata: Record<string, string> }> = [];
  const plugin = definePlugin({
    type,
    kind: 'terminal',
    title: type,
    description: '',
    configSchema: z.record(z.string(), z.unknown()),
    defaultConfig: {},
    outputs: [],
    process: (m) => void seen.push({ payload: m.payload, metadata: { ...m.metadata } }),
  }) as unknown as Plugin<never>;
  return { plugin, seen };
}

function setup(rateLimits: Record<string, number> = {}, extra: Array<Plugin<never>> = []) {
  const out = sink();
  const h = harness([out.plugin, ...extra], {
    security: {
      env: { YUKTA_SECRET_OPENAI: OPENAI_KEY, YUKTA_SECRET_ANTHROPIC: ANTHROPIC_KEY },
      settings: { http: { allowPrivate: true }, llmRateLimits: rateLimits },
    },
  });
  return { h, out };
}

function openAiNode(nodeId: string, extra: Record<string, unknown> = {}) {
  return {
    nodeId,
    type: 'LLM_CALL',
    config: { provider: 'openai', baseUrl: openai.baseUrl, model: 'gpt-test', apiKey: 'decrypted:openai', prompt: 'Classify: ${payload.text}', ...extra },
  };
}

function nodeOf(h: Harness, id: string, nodeId: string) {
  return h.engine.getRun(id).nodes.find((n) => n.nodeId === nodeId)!;
}

/** Moves virtual time until the run ends (retries back off, rate limits space calls). */
async function finish(h: Harness, id: string, stepMs = 250): Promise<string> {
  for (let i = 0; i < 400 && !['SUCCESS', 'FAILURE', 'CANCELLED', 'TIMED_OUT'].includes(h.engine.getRun(id).status); i++) await h.clock.advanceAsync(stepMs);
  return h.engine.waitForRun(id);
}

describe('EXT-01 LLM_CALL', () => {
  it('calls an OpenAI-compatible chat completions API: templated prompts, the secret key only on the wire, usage and cost on the metadata', async () => {
    const { h, out } = setup();
    openai.answer = (chat) => `label for ${chat.prompt}`;
    const config = { system: 'You label ${payload.kind} tickets.', prices: { 'gpt-test': { input: 2, output: 8 } } };
    const id = await h.run(chain('oa', [openAiNode('llm', config)], 'SINK'), { text: 'printer on fire', kind: 'IT' });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(openai.requests.at(-1)!.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    const body = JSON.parse(openai.requests.at(-1)!.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'gpt-test',
      max_tokens: 1024,
      messages: [
        { role: 'system', content: 'You label IT tickets.' },
        { role: 'user', content: 'Classify: printer on fire' },
      ],
    });
    expect(body.response_format).toBeUndefined();
    // 10 input tokens at 2 per million + 5 output tokens at 8 per million.
    expect(out.seen).toEqual([
      {
        payload: {
          text: 'label for Classify: printer on fire',
          model: 'gpt-test',
          stopReason: 'stop',
          usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
          cost: 0.00006,
        },
        metadata: expect.objectContaining({
          'llm.provider': 'openai',
          'llm.model': 'gpt-test',
          'llm.inputTokens': '10',
          'llm.outputTokens': '5',
          'llm.totalTokens': '15',
          'llm.cost': '0.00006',
          'budget.llmCalls': '1',
          'budget.tokens': '15',
        }),
      },
    ]);
    expect(JSON.stringify(h.events)).not.toContain(OPENAI_KEY);
  });

  it('calls the Anthropic messages API (x-api-key, anthropic-version, top-level system) and parses a JSON answer into data', async () => {
    const { h, out } = setup();
    anthropic.answer = () => '```json\n{"label":"hardware","urgent":true}\n```';
    const node = {
      nodeId: 'llm',
      type: 'LLM_CALL',
      config: {
        provider: 'anthropic',
        baseUrl: anthropic.baseUrl,
        model: 'claude-test',
        apiKey: 'decrypted:anthropic',
        system: 'Be terse.',
        prompt: '${payload.text}',
        json: true,
        maxOutputTokens: 200,
      },
    };
    const id = await h.run(chain('an', [node], 'SINK'), { text: 'printer on fire' });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    const seen = anthropic.requests.at(-1)!;
    expect(seen.headers).toMatchObject({ 'x-api-key': ANTHROPIC_KEY, 'anthropic-version': '2023-06-01' });
    expect(seen.headers.authorization).toBeUndefined();
    expect(JSON.parse(seen.body)).toMatchObject({
      model: 'claude-test',
      max_tokens: 200,
      system: expect.stringContaining('Be terse.'),
      messages: [{ role: 'user', content: 'printer on fire' }],
    });
    expect(out.seen[0]!.payload).toMatchObject({
      data: { label: 'hardware', urgent: true },
      model: 'claude-test',
      stopReason: 'end_turn',
      usage: { totalTokens: 15 },
      cost: 0,
    });
    expect(out.seen[0]!.metadata['llm.provider']).toBe('anthropic');
  });

  it('an answer that is not JSON (json: true) fails as bad input, never retried; its tokens are still counted', async () => {
    const { h } = setup();
    openai.answer = () => 'sorry, I cannot do JSON';
    const before = openai.chats.length;
    const id = await h.run(chain('nojson', [openAiNode('llm', { json: true, engine: { retry: { maxAttempts: 3 } } })], 'SINK'), { text: 'x' });
    expect(await finish(h, id)).toBe('FAILURE');
    expect(nodeOf(h, id, 'llm').error).toMatchObject({ name: 'BadInputError', code: 'LLM_OUTPUT_NOT_JSON' });
    expect(openai.chats.length - before).toBe(1);
    expect(JSON.parse(openai.requests.at(-1)!.body)).toMatchObject({ response_format: { type: 'json_object' } });
    expect(h.engine.registry.get('LLM_CALL')).toBeDefined();
  });

  it('retries provider errors (429, 503) under the node policy; a 400 or a wrong key fails as bad input without retry', async () => {
    const { h, out } = setup();
    openai.answer = () => 'ok';
    openai.failNext(429, 503);
    const id = await h.run(chain('retry', [openAiNode('llm', { engine: { retry: { maxAttempts: 3, backoffMs: 100 } } })], 'SINK'), { text: 'x' });
    expect(await finish(h, id)).toBe('SUCCESS');
    expect(nodeOf(h, id, 'llm').counts.retried).toBe(2);
    // Every attempt is a call of the run's budget.
    expect(out.seen.at(-1)!.metadata['budget.llmCalls']).toBe('3');

    anthropic.failNext(529);
    const overloaded = await h.run(
      chain(
        'overloaded',
        [
          {
            nodeId: 'llm',
            type: 'LLM_CALL',
            config: {
              provider: 'anthropic',
              baseUrl: anthropic.baseUrl,
              model: 'c',
              apiKey: 'decrypted:anthropic',
              prompt: 'p',
              engine: { retry: { maxAttempts: 2, backoffMs: 100 } },
            },
          },
        ],
        'SINK',
      ),
    );
    expect(await finish(h, overloaded)).toBe('SUCCESS');
    expect(nodeOf(h, overloaded, 'llm').counts.retried).toBe(1);

    openai.failNext(400);
    const bad = await h.run(chain('bad', [openAiNode('llm', { engine: { retry: { maxAttempts: 3, backoffMs: 100 } } })], 'SINK'), { text: 'x' });
    expect(await finish(h, bad)).toBe('FAILURE');
    expect(nodeOf(h, bad, 'llm').error).toMatchObject({ name: 'BadInputError', code: 'LLM_400', message: expect.stringContaining('fake failure 400') });
    expect(nodeOf(h, bad, 'llm').counts.retried ?? 0).toBe(0);

    const wrongKey = harness([sink().plugin], { security: { env: { YUKTA_SECRET_OPENAI: 'sk-wrong' }, settings: { http: { allowPrivate: true } } } });
    const denied = await wrongKey.run(chain('key', [openAiNode('llm', { engine: { retry: { maxAttempts: 3 } } })], 'SINK'), { text: 'x' });
    expect(await wrongKey.engine.waitForRun(denied)).toBe('FAILURE');
    expect(nodeOf(wrongKey, denied, 'llm').error).toMatchObject({ code: 'LLM_401' });
  });

  it('sends the base URL through the network guard, and refuses plain API keys in the definition', async () => {
    const h = harness([sink().plugin], { security: { env: { YUKTA_SECRET_OPENAI: OPENAI_KEY } } });
    const id = await h.run(chain('ssrf', [openAiNode('llm')], 'SINK'), { text: 'x' });
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    expect(nodeOf(h, id, 'llm').error).toMatchObject({ code: 'SSRF_BLOCKED' });
    const plain = h.engine.validate(chain('plain', [openAiNode('llm', { apiKey: 'sk-live-123' })], 'SINK'));
    expect(plain.valid).toBe(false);
    expect(plain.issues.map((i) => i.message).join(' ')).toMatch(/decrypted:<name>/);
  });
});

describe('EXT-03 LLM budgets', () => {
  it('maxCalls counts LLM calls of the run across nodes: at the limit the next call fails like a failed call (ROUTE applies)', async () => {
    const { h, out } = setup();
    const def = chain(
      'calls',
      [openAiNode('a', { budget: { maxCalls: 1 } }), openAiNode('b', { prompt: 'again', budget: { maxCalls: 1 }, engine: { onError: 'ROUTE' } })],
      'SINK',
    );
    def.nodes.push({ nodeId: 'dead', type: 'SINK' });
    def.edges!.push({ source: 'b', target: 'dead', sourcePort: 'error' });
    const id = await h.run(def, { text: 'x' });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(out.seen).toEqual([
      {
        payload: expect.objectContaining({
          error: expect.objectContaining({ name: 'BadInputError', code: 'BUDGET_EXCEEDED', message: expect.stringContaining('1 of 1 LLM calls') }),
        }),
        metadata: expect.any(Object),
      },
    ]);
    expect(h.engine.getRun(id).status).toBe('SUCCESS');
  });

  it('maxTokens: the call that crosses the limit completes, the next one is refused; without hardStop only that node fails', async () => {
    const { h, out } = setup();
    // 15 tokens per call: calls 1 and 2 go (0 and 15 < 20 used before them), call 3 is refused (30 used).
    const def = chain(
      'tokens',
      [
        { nodeId: 's', type: 'SPLIT', config: { path: 'payload.items' } },
        openAiNode('llm', { prompt: '${payload}', budget: { maxTokens: 20 }, engine: { onError: 'CONTINUE' } }),
      ],
      'SINK',
    );
    const id = await h.run(def, { items: ['one', 'two', 'three'] });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(out.seen.map((s) => s.metadata['budget.tokens'])).toEqual(['15', '30']);
    expect(nodeOf(h, id, 'llm').counts).toMatchObject({ failed: 1 });
  });

  it('hardStop ends the whole run at the limit: other branches are cancelled, nothing is retried or routed', async () => {
    const { h, out } = setup();
    const def: WorkflowDefinitionInput = {
      workflowId: 'hard',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        openAiNode('a', { budget: { maxCalls: 1 } }),
        openAiNode('b', { budget: { maxCalls: 1, hardStop: true }, engine: { onError: 'ROUTE', retry: { maxAttempts: 3 } } }),
        { nodeId: 'b-out', type: 'SINK' },
        { nodeId: 'dead', type: 'SINK' },
        { nodeId: 'wait', type: 'WAIT_FOR_SIGNAL', config: { signal: 'go' } },
        { nodeId: 'wait-out', type: 'SINK' },
      ],
      edges: [
        { source: 't', target: 'a' },
        { source: 'a', target: 'b' },
        { source: 'b', target: 'b-out' },
        { source: 'b', target: 'dead', sourcePort: 'error' },
        { source: 't', target: 'wait' },
        { source: 'wait', target: 'wait-out' },
      ],
    };
    const id = await h.run(def, { text: 'x' });
    expect(await finish(h, id)).toBe('FAILURE');
    expect(h.engine.getRun(id).error).toMatchObject({
      code: 'RUN_ABORTED',
      message: expect.stringMatching(/budget of this run is used up: 1 of 1 LLM calls.*hardStop/),
    });
    expect(h.statuses(id)).toMatchObject({ a: 'SUCCESS', b: 'FAILURE', wait: 'CANCELLED' });
    expect(nodeOf(h, id, 'b').counts.retried ?? 0).toBe(0);
    expect(out.seen).toEqual([]);
  });

  it('maxCost prices calls by model; a budget with an agent is counted apart from the run and from other agents', async () => {
    const { h, out } = setup();
    const prices = { 'gpt-test': { input: 1000, output: 1000 } }; // 15 tokens → 0.015 per call
    const alpha = (nodeId: string, extra: Record<string, unknown> = {}) => openAiNode(nodeId, { prices, budget: { maxCost: 0.02, agent: 'alpha' }, ...extra });
    const def: WorkflowDefinitionInput = {
      workflowId: 'agents',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        openAiNode('run', { prices, budget: { maxCalls: 1 } }),
        { nodeId: 'run-out', type: 'SINK' },
        alpha('a1'),
        alpha('a2'),
        alpha('a3', { engine: { onError: 'CONTINUE' } }),
        { nodeId: 'a2-out', type: 'SINK' },
        { nodeId: 'a3-out', type: 'SINK' },
        openAiNode('b1', { prices, budget: { maxCalls: 1, agent: 'beta' } }),
        { nodeId: 'b1-out', type: 'SINK' },
      ],
      edges: [
        { source: 't', target: 'run' },
        { source: 'run', target: 'run-out' },
        { source: 't', target: 'a1' },
        { source: 'a1', target: 'a2' },
        { source: 'a2', target: 'a2-out' },
        { source: 'a2', target: 'a3' },
        { source: 'a3', target: 'a3-out' },
        { source: 't', target: 'b1' },
        { source: 'b1', target: 'b1-out' },
      ],
    };
    const id = await h.run(def, { text: 'x' });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    const totals = out.seen.map((s) => [s.metadata['budget.llmCalls'], s.metadata['budget.cost']]).sort();
    // run scope: 1 call; beta: 1 call; alpha: 2 calls for 0.03 — a3 was refused (0.03 ≥ 0.02) and dropped (CONTINUE).
    expect(totals).toEqual([
      ['1', '0.015'],
      ['1', '0.015'],
      ['2', '0.03'],
    ]);
    expect(nodeOf(h, id, 'a3').counts.failed).toBe(1);
    const noPrice = await h.run(chain('noprice', [openAiNode('llm', { budget: { maxCost: 1 } })], 'SINK'), { text: 'x' });
    expect(await h.engine.waitForRun(noPrice)).toBe('FAILURE');
    expect(nodeOf(h, noPrice, 'llm').error).toMatchObject({ code: 'PRICE_MISSING' });
  });
});

/** Lets real I/O (the local server) catch up without moving virtual time. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 5000 && !done(); i++) await new Promise<void>((resolve) => setImmediate(resolve));
  expect(done()).toBe(true);
}

describe('EXT-03 yukta.llm.rate-limit.<provider>', () => {
  it('spaces calls to a provider across runs and nodes in virtual time (60 per minute: 1 s apart)', async () => {
    const { h } = setup({ openai: 60 });
    const times: number[] = [];
    openai.answer = () => {
      times.push(h.clock.now());
      return 'ok';
    };
    const start = h.clock.now();
    const def = chain('rl', [{ nodeId: 's', type: 'SPLIT', config: { path: 'payload.items' } }, openAiNode('llm', { prompt: '${payload}' })], 'SINK');
    const ids = [await h.run(def, { items: [1, 2] }), await h.run(def, { items: [3, 4] })];
    for (let k = 1; k <= 4; k++) {
      await until(() => times.length >= k);
      expect(times.length).toBe(k);
      await h.clock.advanceAsync(1000);
    }
    for (const id of ids) expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(times.map((t) => t - start)).toEqual([0, 1000, 2000, 3000]);
    // Another provider is not slowed.
    const other = await h.run(
      chain(
        'rl-an',
        [
          {
            nodeId: 'llm',
            type: 'LLM_CALL',
            config: { provider: 'anthropic', baseUrl: anthropic.baseUrl, model: 'c', apiKey: 'decrypted:anthropic', prompt: 'p' },
          },
        ],
        'SINK',
      ),
    );
    expect(await h.engine.waitForRun(other)).toBe('SUCCESS');
  });

  it('a node waiting for its slot longer than its idle timeout stays alive (it heartbeats) and keys count apart by rateLimitKey', async () => {
    const { h } = setup({ openai: 2, local: 2 });
    const times: Array<[string, number]> = [];
    openai.answer = (chat) => {
      times.push([chat.model, h.clock.now()]);
      return 'ok';
    };
    const start = h.clock.now();
    const slow = chain('slow', [{ ...openAiNode('llm'), timeoutSeconds: 5 }], 'SINK');
    const local = chain('local', [openAiNode('llm', { model: 'local-model', rateLimitKey: 'local' })], 'SINK');
    const ids = [await h.run(slow, { text: 'a' }), await h.run(slow, { text: 'b' }), await h.run(local, { text: 'c' })];
    for (let k = 1; k <= 3; k++) {
      await until(() => times.length >= k);
      await h.clock.advanceAsync(k === 2 ? 30_000 : 0);
    }
    for (const id of ids) expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    // openai: 0 and 30 s (2 per minute) — the second waited 30 s under a 5 s idle timeout; "local" went at once.
    expect(times.map(([model, t]) => [model, t - start]).sort()).toEqual([
      ['gpt-test', 0],
      ['gpt-test', 30_000],
      ['local-model', 0],
    ]);
  });
});
