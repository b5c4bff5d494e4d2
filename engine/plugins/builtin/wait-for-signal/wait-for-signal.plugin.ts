import { z } from 'zod';
import { DEFAULT_PORT } from '../../../../shared/workflow/engine-policy.schema';
import { BadInputError } from '../../../runtime/errors';
import type { Message } from '../../../runtime/message';
import { definePlugin, type SignalAnswer } from '../../contract';

/** Ports: approved messages leave on `out`, rejected ones on `rejected`, timed-out ones on `timeout`. */
export const REJECTED_PORT = 'rejected';
export const TIMEOUT_PORT = 'timeout';
/** Longest wait: kept under the 32-bit timer limit (about 23 days). */
export const MAX_WAIT_SECONDS = 2_000_000;
/** The idle timeout is the wait plus this (ENG-05), so a node waiting its full time is not idle. */
const IDLE_MARGIN_MS = 30_000;

const Outcome = z.enum(['ROUTE', 'FAIL', 'DROP']);

const WaitForSignalConfig = z.strictObject({
  /** The signal's name, shown in the inbox and tagged on the message. */
  signal: z.string().min(1).max(128),
  /** How long each message waits (node clock: paused with the node). */
  timeoutSeconds: z.number().int().min(1).max(MAX_WAIT_SECONDS).default(3600),
  /** On timeout: FAIL the node (SIGNAL_TIMEOUT, its failure policy applies), ROUTE to `timeout`, or DROP the message. */
  onTimeout: Outcome.default('FAIL'),
  /** On a REJECT answer: ROUTE to `rejected`, FAIL the node (SIGNAL_REJECTED, bad input: never retried), or DROP. */
  onReject: Outcome.default('ROUTE'),
});
type WaitForSignalConfig = z.infer<typeof WaitForSignalConfig>;

/** A signal that did not come in time, under `onTimeout: FAIL`. */
export class SignalTimeoutError extends Error {
  override readonly name = 'SignalTimeoutError';
  readonly code = 'SIGNAL_TIMEOUT';
}

function tags(message: Message, name: string, decision: string, answer: SignalAnswer | null): Record<string, string> {
  const metadata: Record<string, string> = { ...message.metadata, 'signal.name': name, 'signal.decision': decision };
  if (answer) {
    metadata['signal.actor'] = answer.actor;
    if (answer.data !== undefined) metadata['signal.data'] = JSON.stringify(answer.data);
  }
  return metadata;
}

function timedOut(message: Message, config: WaitForSignalConfig, nodeId: string) {
  if (config.onTimeout === 'FAIL') throw new SignalTimeoutError(`node "${nodeId}": no signal "${config.signal}" within ${config.timeoutSeconds} s`);
  if (config.onTimeout === 'DROP') return [];
  return [{ payload: message.payload, metadata: tags(message, config.signal, 'TIMEOUT', null), port: TIMEOUT_PORT }];
}

function rejected(message: Message, config: WaitForSignalConfig, answer: SignalAnswer, nodeId: string) {
  if (config.onReject === 'FAIL') throw new BadInputError(`node "${nodeId}": signal "${config.signal}" rejected by ${answer.actor}`, 'SIGNAL_REJECTED');
  if (config.onReject === 'DROP') return [];
  return [{ payload: message.payload, metadata: tags(message, config.signal, 'REJECTED', answer), port: REJECTED_PORT }];
}

/**
 * Holds each message until its signal arrives (CTL-05) and tags it with `signal.name`, `signal.decision`
 * (APPROVED, REJECTED, TIMEOUT), `signal.actor` and `signal.data` (JSON text) in its metadata; the payload
 * passes unchanged. Every waiting message is an open approval in the shared inbox.
 */
export const waitForSignalPlugin = definePlugin({
  type: 'WAIT_FOR_SIGNAL',
  kind: 'processor',
  title: 'Wait for signal',
  description: 'Holds each message until an approve or reject signal arrives (approval inbox), or its wait times out.',
  configSchema: WaitForSignalConfig,
  defaultConfig: { signal: 'approve', timeoutSeconds: 3600 },
  outputs: [DEFAULT_PORT, REJECTED_PORT, TIMEOUT_PORT],
  waitsForSignals: true,
  defaultTimeoutMs: (config) => config.timeoutSeconds * 1000 + IDLE_MARGIN_MS,
  async process(message, config, ctx) {
    const answer = await ctx.control.waitForSignal({
      signal: config.signal,
      messageId: message.id,
      payload: message.payload,
      timeoutMs: config.timeoutSeconds * 1000,
    });
    if (answer === null) return timedOut(message, config, ctx.nodeId);
    if (answer.decision === 'REJECTED') return rejected(message, config, answer, ctx.nodeId);
    return [{ payload: message.payload, metadata: tags(message, config.signal, 'APPROVED', answer) }];
  },
});
