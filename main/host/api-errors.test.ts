import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StudioApiError } from '../../shared/api/errors';
import {
  BadInputError,
  CancelledError,
  ConflictError,
  NodeTimeoutError,
  NotFoundError,
  PayloadTooLargeError,
  QueueFullError,
  RateLimitedError,
  RefusedError,
  RunAbortedError,
  UnavailableError,
  ValidationError,
} from '../../engine/index';
import { apiErrorOf } from './api-errors';

const cycle = { code: 'DEF-02/cycle' as const, severity: 'error' as const, message: 'a cycle: a → b → a', nodeId: 'a', nodeIds: ['a', 'b'], path: 'edges.2' };

describe('ENG errors: the host maps engine errors to API codes in one place', () => {
  it('maps every refusal kind to its API code, with the field, the issues and Retry-After', () => {
    expect(apiErrorOf(new BadInputError('payload.yukta.priority must be an integer', 'BAD_INPUT', 'payload.yukta.priority'))).toEqual({
      code: 'BAD_INPUT',
      message: 'payload.yukta.priority must be an integer',
      path: 'payload.yukta.priority',
    });
    expect(apiErrorOf(new PayloadTooLargeError('too big', { path: 'payload' }))).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'too big', path: 'payload' });
    expect(apiErrorOf(new ValidationError('workflow refused: a cycle', [cycle], 'edges.2'))).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'workflow refused: a cycle',
      path: 'edges.2',
      issues: [cycle],
    });
    expect(apiErrorOf(new NotFoundError('run "x" does not exist', 'executionId'))).toEqual({
      code: 'NOT_FOUND',
      message: 'run "x" does not exist',
      path: 'executionId',
    });
    expect(apiErrorOf(new ConflictError('run "x" is SUCCESS, not running'))).toEqual({ code: 'CONFLICT', message: 'run "x" is SUCCESS, not running' });
    expect(apiErrorOf(new RateLimitedError('start refused: no slot', 1))).toEqual({
      code: 'RATE_LIMITED',
      message: 'start refused: no slot',
      retryAfterSeconds: 1,
    });
    expect(apiErrorOf(new QueueFullError('start refused: queue full', 1))).toEqual({
      code: 'QUEUE_FULL',
      message: 'start refused: queue full',
      retryAfterSeconds: 1,
    });
    expect(apiErrorOf(new UnavailableError('the server is shutting down'))).toEqual({ code: 'UNAVAILABLE', message: 'the server is shutting down' });
    expect(apiErrorOf(new RefusedError('Pause refused: no (reviewer r)'))).toEqual({ code: 'FORBIDDEN', message: 'Pause refused: no (reviewer r)' });
  });

  it("passes the host's own StudioApiError as it is; run-time failures and unknown throws are not client errors (INTERNAL)", () => {
    expect(apiErrorOf(new StudioApiError('UNAUTHORIZED', 'an API key is required'))).toEqual({ code: 'UNAUTHORIZED', message: 'an API key is required' });
    expect(apiErrorOf(new NodeTimeoutError('idle', 'IDLE_TIMEOUT'))).toBeNull();
    expect(apiErrorOf(new CancelledError('cancelled'))).toBeNull();
    expect(apiErrorOf(new RunAbortedError('hard stop'))).toBeNull();
    expect(apiErrorOf(new Error('boom'))).toBeNull();
  });

  it("the engine never throws the transport's error type (no engine source imports StudioApiError)", () => {
    const root = resolve(import.meta.dirname, '../../engine');
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && readFileSync(path, 'utf8').includes('StudioApiError'))
          offenders.push(path.slice(root.length + 1));
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
