import { Status } from '../../shared/status/status';
import type { RecordedMessage } from './checkpoint-store';
import { serializeForStore } from './unwritable-entry-error';

/** One recorded message as a JSONL line (file store, spill folder): payloads become plain JSON. */
export function recordedLine(message: RecordedMessage): string {
  const record = message.messageId === undefined ? { port: message.port, payload: message.payload, metadata: message.metadata } : message;
  return `${serializeForStore(record, 'a checkpoint message')}\n`;
}

/** Checks a stored message's shape; throws naming the bad field. */
export function parseRecordedMessage(value: unknown): RecordedMessage {
  if (value === null || typeof value !== 'object') throw new Error('not an object');
  const v = value as Record<string, unknown>;
  if (typeof v.port !== 'string') throw new Error('port is not a string');
  const metadata = v.metadata ?? {};
  if (typeof metadata !== 'object' || metadata === null) throw new Error('metadata is not an object');
  const message: RecordedMessage = { port: v.port, payload: v.payload, metadata: metadata as Record<string, string> };
  return typeof v.messageId === 'string' ? { ...message, messageId: v.messageId } : message;
}

/** An end marker as stored (`<node>.done`, `end_status`). */
export function parseEndStatus(text: string): Status {
  return Status.parse(text.trim());
}
