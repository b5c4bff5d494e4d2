import { z } from 'zod';

/**
 * The remote-worker protocol (SCL-01), version 1: what a worker and the host say over one WebSocket.
 *
 * - A worker connects out (with the shared token as `Authorization: Bearer`), says HELLO (its name, pool,
 *   the plugin types it allows, its slots and window, its version) and gets WELCOME (the lease, the window,
 *   the message limits) or REFUSED (a standby answers `not_leader`; a wrong protocol version is refused).
 * - RENEW renews its lease (three times per lease); it carries `draining` once the worker is stopping.
 * - One logical stream per node attempt, numbered by the host: START, the INPUT messages, COMPLETE; back come
 *   OUTPUTs, HEARTBEATs, LOG lines, then COMPLETE or ERROR. CANCEL crosses from the host.
 * - Back-pressure is by credit, per stream, both ways: a side may have at most `window` messages of a stream
 *   outstanding (inputs: the worker's window from HELLO; outputs: the host's from WELCOME), and CREDIT gives
 *   back what the receiver consumed. Sending beyond credit is a protocol error that drops the connection.
 *
 * Every WebSocket text frame is a JSON array of one or more messages (a batch), within the byte limit of a frame
 * and the JSON depth limit (`yukta.execution.max-message-bytes`, `yukta.execution.max-depth`).
 */
export const WORKER_PROTOCOL_VERSION = 1;

/** A worker name, pool or plugin type: what logs, metrics labels and the studio show. */
export const WorkerName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, 'letters, digits and . _ : - (at most 128, starting with a letter or digit)');

const StreamId = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const Credit = z.number().int().min(1).max(1_000_000);
const Text = (max: number) => z.string().max(max);
const Metadata = z.record(Text(256), Text(8192));

/** An input message as it crosses: the engine's Message, plain JSON. */
export const WireMessage = z.strictObject({
  id: Text(512),
  payload: z.unknown(),
  metadata: Metadata,
  headers: z.record(Text(256), z.union([Text(8192), z.number()])),
});
export type WireMessage = z.infer<typeof WireMessage>;

/** An output as a plugin returned it. */
export const WireOutput = z.strictObject({ payload: z.unknown(), metadata: Metadata.optional(), port: Text(128).optional() });
export type WireOutput = z.infer<typeof WireOutput>;

/** A plugin's error as data: its name and code are what `retryOn`/`noRetryOn` match (ENG-04). */
export const WireError = z.strictObject({ name: Text(200), message: Text(10_000), code: Text(200).optional() });
export type WireError = z.infer<typeof WireError>;

/** Why a host refuses a registration. */
export const REFUSAL_REASONS = ['not_leader', 'protocol_version', 'bad_hello'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

const Hello = z.strictObject({
  t: z.literal('HELLO'),
  protocol: z.number().int(),
  name: WorkerName,
  pool: WorkerName,
  allow: z.array(WorkerName).max(1000),
  slots: z.number().int().min(1).max(10_000),
  window: Credit,
  version: Text(64),
});
const Renew = z.strictObject({ t: z.literal('RENEW'), draining: z.boolean() });
const Output = z.strictObject({ t: z.literal('OUTPUT'), s: StreamId, out: WireOutput });
const Heartbeat = z.strictObject({ t: z.literal('HEARTBEAT'), s: StreamId });
const Log = z.strictObject({ t: z.literal('LOG'), s: StreamId, level: z.enum(['debug', 'info', 'warn', 'error']), text: Text(10_000) });
const Complete = z.strictObject({ t: z.literal('COMPLETE'), s: StreamId });
const Failed = z.strictObject({ t: z.literal('ERROR'), s: StreamId, error: WireError });
const CreditGrant = z.strictObject({ t: z.literal('CREDIT'), s: StreamId, n: Credit });

const Welcome = z.strictObject({
  t: z.literal('WELCOME'),
  protocol: z.number().int(),
  name: WorkerName,
  leaseMs: z.number().int().min(1),
  window: Credit,
  maxMessageBytes: z.number().int().min(1),
  maxDepth: z.number().int().min(1),
});
const Refused = z.strictObject({ t: z.literal('REFUSED'), reason: z.enum(REFUSAL_REASONS), message: Text(1000) });
const Start = z.strictObject({
  t: z.literal('START'),
  s: StreamId,
  type: WorkerName,
  config: z.record(z.string(), z.unknown()),
  executionId: Text(256),
  session: Text(256),
  workflowId: Text(256),
  nodeId: Text(256),
  attempt: z.number().int().min(1),
});
const Input = z.strictObject({ t: z.literal('INPUT'), s: StreamId, message: WireMessage });
const Cancel = z.strictObject({ t: z.literal('CANCEL'), s: StreamId, reason: Text(1000) });

/** What a worker sends. */
export const WorkerToHost = z.discriminatedUnion('t', [Hello, Renew, Output, Heartbeat, Log, Complete, Failed, CreditGrant]);
export type WorkerToHost = z.infer<typeof WorkerToHost>;
/** What the host sends. */
export const HostToWorker = z.discriminatedUnion('t', [Welcome, Refused, Start, Input, Complete, Cancel, CreditGrant]);
export type HostToWorker = z.infer<typeof HostToWorker>;

export type Hello = z.infer<typeof Hello>;
export type Welcome = z.infer<typeof Welcome>;
export type StartMessage = z.infer<typeof Start>;

/** Most messages in one frame. */
export const MAX_BATCH = 1024;

/**
 * WebSocket close codes of the protocol (4000–4999 are the application's). 1008 (policy) and 1009 (too big)
 * are the standard ones for a refused frame.
 */
export const CLOSE_CODES = {
  normal: 1000,
  malformed: 1007,
  policy: 1008,
  tooBig: 1009,
  refused: 4001,
  leaseExpired: 4008,
  replaced: 4009,
  shutdown: 4010,
} as const;

/** Where the host's listener upgrades worker connections unless `yukta.workers.path` says otherwise. */
export const DEFAULT_WORKERS_PATH = '/workers';
