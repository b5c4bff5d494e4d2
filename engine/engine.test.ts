import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StudioEvent } from '../shared/events/events';
import { ValidationError } from './engine-errors';
import { Engine, builtinPlugins, definePlugin, type Plugin } from './index';

const Empty = z.strictObject({});

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

const failPlugin = definePlugin({
  type: 'FAIL',
  kind: 'processor',
  title: 'Fail',
  description: 'always throws',
  configSchema: Empty,
  defaultConfig: {},
  outputs: ['out'],
  process() {
    throw new Error('boom');
  },
});

function engineWith(...extra: Array<Plugin<never>>) {
  const engine = new Engine({ plugins: [...builtinPlugins(), ...extra], channelCapacity: 4 });
  const events: StudioEvent[] = [];
  engine.subscribe((e) => events.push(e));
  return { engine, events };
}

const chain = {
  workflowId: 'chain',
  nodes: [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'greet', type: 'TRANSFORM', config: { set: { greeting: 'Hello ${payload.name}' } } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'start', target: 'greet' },
    { source: 'greet', target: 'out' },
  ],
};

describe('ENG-06 run and node statuses', () => {
  it('runs a chain to SUCCESS with every node SUCCESS and the result recorded', async () => {
    const { engine, events } = engineWith();
    await engine.saveWorkflow('s', chain);
    const { executionId } = await engine.startRun({ session: 's', workflowId: 'chain', payload: { name: 'Ada' } });
    expect(await engine.waitForRun(executionId)).toBe('SUCCESS');
    const run = engine.getRun(executionId);
    expect(run.nodes.map((n) => [n.nodeId, n.status])).toEqual([
      ['start', 'SUCCESS'],
      ['greet', 'SUCCESS'],
      ['out', 'SUCCESS'],
    ]);
    expect(run.results).toEqual([{ nodeId: 'out', messageId: 'greet#1', payload: { name: 'Ada', greeting: 'Hello Ada' } }]);
    expect(run.definitionVersion).toMatch(/^[0-9a-f]{64}$/);
    // The first event names every node (all PENDING); each node then goes RUNNING → SUCCESS, and the run ends last.
    expect(events[0]).toMatchObject({ type: 'EXECUTION_STATUS', status: 'PENDING', nodeIds: ['start', 'greet', 'out'] });
    for (const id of ['start', 'greet', 'out']) {
      const seq = events.filter((e) => e.type === 'NODE_STATUS' && e.nodeId === id).map((e) => (e as { status: string }).status);
      expect(seq).toEqual(['RUNNING', 'SUCCESS']);
    }
    expect(events.at(-1)).toMatchObject({ type: 'EXECUTION_STATUS', status: 'SUCCESS' });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });

  it('marks only the failed node FAILURE, its descendants UPSTREAM_FAILED, and cancels other branches', async () => {
    const hold = gate();
    const slow = definePlugin({
      type: 'SLOW',
      kind: 'processor',
      title: 'Slow',
      description: 'waits for a gate',
      configSchema: Empty,
      defaultConfig: {},
      outputs: ['out'],
      async process(m) {
        await hold.opened;
        return [{ payload: m.payload }];
      },
    });
    const { engine } = engineWith(failPlugin as unknown as Plugin<never>, slow as unknown as Plugin<never>);
    await engine.saveWorkflow('s', {
      workflowId: 'branches',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'bad', type: 'FAIL' },
        { nodeId: 'after', type: 'TRANSFORM' },
        { nodeId: 'sinkA', type: 'CONSOLE_TERMINAL' },
        { nodeId: 'slow', type: 'SLOW' },
        { nodeId: 'sinkB', type: 'CONSOLE_TERMINAL' },
      ],
      edges: [
        { source: 't', target: 'bad' },
        { source: 'bad', target: 'after' },
        { source: 'after', target: 'sinkA' },
        { source: 't', target: 'slow' },
        { source: 'slow', target: 'sinkB' },
      ],
    });
    const { executionId } = await engine.startRun({ session: 's', workflowId: 'branches', payload: {} });
    const done = engine.waitForRun(executionId);
    // The run ends FAILURE while the slow branch is still inside its plugin.
    await expect.poll(() => engine.getRun(executionId).status).toBe('FAILURE');
    hold.open();
    expect(await done).toBe('FAILURE');
    const status = Object.fromEntries(engine.getRun(executionId).nodes.map((n) => [n.nodeId, n.status]));
    expect(status).toEqual({ t: 'SUCCESS', bad: 'FAILURE', after: 'UPSTREAM_FAILED', sinkA: 'UPSTREAM_FAILED', slow: 'CANCELLED', sinkB: 'CANCELLED' });
    expect(engine.getRun(executionId).error?.message).toContain('node "bad" failed: boom');
  });

  it("fails the run with the plugin's bad-input message (API_TRIGGER required fields)", async () => {
    const { engine } = engineWith();
    await engine.saveWorkflow('s', { ...chain, nodes: chain.nodes.map((n) => (n.nodeId === 'start' ? { ...n, config: { requiredFields: ['orderId'] } } : n)) });
    const { executionId } = await engine.startRun({ session: 's', workflowId: 'chain', payload: {} });
    expect(await engine.waitForRun(executionId)).toBe('FAILURE');
    const run = engine.getRun(executionId);
    expect(run.error).toMatchObject({ name: 'BadInputError' });
    expect(run.error?.message).toContain('orderId');
  });

  it('a caller cancel ends the run CANCELLED', async () => {
    const hold = gate();
    const slow = definePlugin({
      type: 'SLOW',
      kind: 'processor',
      title: 'Slow',
      description: '',
      configSchema: Empty,
      defaultConfig: {},
      outputs: ['out'],
      async process(m) {
        await hold.opened;
        return [{ payload: m.payload }];
      },
    });
    const { engine } = engineWith(slow as unknown as Plugin<never>);
    await engine.saveWorkflow('s', {
      workflowId: 'c',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'x', type: 'SLOW' },
        { nodeId: 'o', type: 'CONSOLE_TERMINAL' },
      ],
      edges: [
        { source: 't', target: 'x' },
        { source: 'x', target: 'o' },
      ],
    });
    const { executionId } = await engine.startRun({ session: 's', workflowId: 'c', payload: {} });
    await expect.poll(() => engine.getRun(executionId).nodes.find((n) => n.nodeId === 'x')?.status).toBe('RUNNING');
    engine.cancelRun(executionId);
    hold.open();
    expect(await engine.waitForRun(executionId)).toBe('CANCELLED');
    expect(engine.getRun(executionId).nodes.find((n) => n.nodeId === 'o')?.status).toBe('CANCELLED');
  });
});

describe('ENG-01 back-pressure and FIFO', () => {
  it('never holds more than the channel capacities in flight, and delivers in order', async () => {
    const total = 5000;
    let produced = 0;
    let consumed = 0;
    let maxInFlight = 0;
    const seen: number[] = [];
    const burst = definePlugin({
      type: 'BURST',
      kind: 'trigger',
      title: 'Burst',
      description: '',
      configSchema: Empty,
      defaultConfig: {},
      outputs: ['out'],
      async *process() {
        for (let i = 0; i < total; i++) {
          produced++;
          maxInFlight = Math.max(maxInFlight, produced - consumed);
          yield { payload: i };
        }
      },
    });
    const slowSink = definePlugin({
      type: 'SLOW_SINK',
      kind: 'terminal',
      title: 'Slow sink',
      description: '',
      configSchema: Empty,
      defaultConfig: {},
      outputs: [],
      async process(m) {
        for (let i = 0; i < 3; i++) await Promise.resolve();
        seen.push(m.payload as number);
        consumed++;
      },
    });
    const { engine } = engineWith(burst as unknown as Plugin<never>, slowSink as unknown as Plugin<never>);
    await engine.saveWorkflow('s', {
      workflowId: 'bp',
      nodes: [
        { nodeId: 'src', type: 'BURST' },
        { nodeId: 'a', type: 'TRANSFORM' },
        { nodeId: 'b', type: 'TRANSFORM' },
        { nodeId: 'sink', type: 'SLOW_SINK' },
      ],
      edges: [
        { source: 'src', target: 'a' },
        { source: 'a', target: 'b' },
        { source: 'b', target: 'sink' },
      ],
    });
    const { executionId } = await engine.startRun({ session: 's', workflowId: 'bp', payload: {} });
    expect(await engine.waitForRun(executionId)).toBe('SUCCESS');
    expect(seen).toEqual(Array.from({ length: total }, (_, i) => i));
    // Three channels of capacity 4, plus at most one message held inside each of the four stages.
    expect(maxInFlight).toBeLessThanOrEqual(3 * 4 + 4);
  });
});

describe('DEF-02 save refuses invalid graphs and stores nothing', () => {
  it('refuses a cycle with VALIDATION_FAILED and the issue', async () => {
    const { engine } = engineWith();
    const cyclic = {
      workflowId: 'cyc',
      nodes: [
        { nodeId: 'a', type: 'TRANSFORM' },
        { nodeId: 'b', type: 'TRANSFORM' },
      ],
      edges: [
        { source: 'a', target: 'b' },
        { source: 'b', target: 'a' },
      ],
    };
    const error = await engine.saveWorkflow('s', cyclic).catch((e: unknown) => e);
    // VALIDATION_FAILED on the wire (main/host/api-errors.ts); the engine's error names the rule.
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).code).toBe('DEF-02/cycle');
    expect((error as ValidationError).issues.map((i) => i.code)).toContain('DEF-02/cycle');
    expect(await engine.listWorkflows('s')).toEqual([]);
  });

  it('refuses config that fails the plugin schema, naming node and option', () => {
    const { engine } = engineWith();
    const result = engine.validate({ workflowId: 'w', nodes: [{ nodeId: 'o', type: 'CONSOLE_TERMINAL', config: { format: 'xml' } }] });
    expect(result.valid).toBe(false);
    expect(result.issues.find((i) => i.severity === 'error')).toMatchObject({ code: 'DEF-02/config', nodeId: 'o', path: 'nodes.0.config.format' });
  });

  it('starting an unknown workflow is NOT_FOUND', async () => {
    const { engine } = engineWith();
    await expect(engine.startRun({ session: 's', workflowId: 'nope', payload: {} })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('EXT-01 plugin registry', () => {
  it('fails on a duplicate type', () => {
    expect(() => new Engine({ plugins: [...builtinPlugins(), ...builtinPlugins()] })).toThrow(/registered twice/);
  });

  it('lists node types with a JSON schema and a default config that passes it', () => {
    const { engine } = engineWith();
    const types = engine.nodeTypes();
    expect(types.map((t) => t.type)).toEqual([
      'API_TRIGGER',
      'MANUAL_TRIGGER',
      'CRON_TRIGGER',
      'TRANSFORM',
      'ROUTER',
      'DELAY',
      'SPLIT',
      'AGGREGATE',
      'SUB_WORKFLOW',
      'WAIT_FOR_SIGNAL',
      'HTTP_REQUEST',
      'LLM_CALL',
      'MCP_TOOL_CALL',
      'SCRIPT',
      'PROCESS_EXECUTOR',
      'CONSOLE_TERMINAL',
      'RESULT_TERMINAL',
    ]);
    for (const t of types) {
      expect(t.configSchema).toMatchObject({ type: 'object' });
      expect(engine.registry.get(t.type)!.configSchema.safeParse(t.defaultConfig).success).toBe(true);
    }
  });
});
