import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { STUDIO_API, type OperationOutput, type ParsedInput } from '../api/contract';
import { Identifier } from './identifier';
import { ExecutionId, NodeId, VersionId } from './ids';

const HASH = 'a'.repeat(64);

describe('DEF-02 branded ids at the contract', () => {
  it('refuses a node id where an execution id is expected (compile time)', () => {
    const nodeId = NodeId.parse('x');
    const executionId = ExecutionId.parse('r-1');
    const needsRun = (id: ExecutionId): ExecutionId => id;
    // @ts-expect-error a NodeId is not an ExecutionId
    needsRun(nodeId);
    // @ts-expect-error nor is a bare string: it must be parsed (or minted by the engine)
    needsRun('r-1');
    // @ts-expect-error the host's parsed input of signals.send keeps the two apart
    const swapped: ParsedInput<'signals.send'> = { executionId: nodeId, nodeId: executionId, decision: 'APPROVE' };
    expect(swapped.executionId).toBe('x'); // brands are types only: the values are the strings
    expectTypeOf<NodeId>().not.toExtend<ExecutionId>();
    expectTypeOf<ExecutionId>().not.toExtend<VersionId>();
    expectTypeOf<ExecutionId>().toExtend<string>();
  });

  it('brands every id of the parsed input, and the ids the engine mints in answers', () => {
    expectTypeOf<ParsedInput<'runs.get'>['executionId']>().toEqualTypeOf<ExecutionId>();
    expectTypeOf<ParsedInput<'runs.recorded'>['nodeId']>().toEqualTypeOf<NodeId>();
    expectTypeOf<ParsedInput<'workflows.getVersion'>['version']>().toEqualTypeOf<VersionId>();
    expectTypeOf<ParsedInput<'workers.attempts'>['nodeId']>().toEqualTypeOf<NodeId | undefined>();
    expectTypeOf<OperationOutput<'runs.start'>['executionId']>().toEqualTypeOf<ExecutionId>();
    expectTypeOf<OperationOutput<'workflows.save'>['version']>().toEqualTypeOf<VersionId>();
    expectTypeOf<OperationOutput<'runs.resume'>['executionId']>().toEqualTypeOf<ExecutionId>();
  });

  it('brands at parse, with the identifier and hash checks kept', () => {
    const input = STUDIO_API['runs.recorded'].input.parse({ executionId: 'r-1', nodeId: 'x' });
    expectTypeOf(input.executionId).toEqualTypeOf<ExecutionId>();
    expectTypeOf(input.nodeId).toEqualTypeOf<NodeId>();
    expect(input).toMatchObject({ executionId: 'r-1', nodeId: 'x' });
    const version = VersionId.parse(HASH);
    expectTypeOf(version).toEqualTypeOf<VersionId>();
    expect(version).toBe(HASH);
    expect(ExecutionId.safeParse('a/b').success).toBe(false);
    expect(NodeId.safeParse('..').success).toBe(false);
    expect(VersionId.safeParse('A'.repeat(64)).success).toBe(false);
    expect(STUDIO_API['runs.get'].input.safeParse({ executionId: '' }).success).toBe(false);
  });

  it('leaves the wire alone: the JSON Schema of a branded id is that of the unbranded one', () => {
    expect(z.toJSONSchema(ExecutionId)).toEqual(z.toJSONSchema(Identifier));
    expect(z.toJSONSchema(NodeId)).toEqual(z.toJSONSchema(Identifier));
  });
});
