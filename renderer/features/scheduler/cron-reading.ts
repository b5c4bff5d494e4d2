import { Cron } from 'croner';
import cronstrue from 'cronstrue';

/** A cron expression in words ("At 08:00 AM, Monday through Friday"), or why it cannot be read. */
export function cronInWords(expression: string): { ok: true; text: string } | { ok: false; error: string } {
  try {
    return { ok: true, text: cronstrue.toString(expression, { use24HourTimeFormat: true, verbose: false }) };
  } catch (error) {
    return { ok: false, error: typeof error === 'string' ? error : error instanceof Error ? error.message : String(error) };
  }
}

/** The next `count` fires after `from` in the schedule's time zone (croner: the engine's own cron library). */
export function nextFires(expression: string, timezone: string, count: number, from: Date = new Date()): Date[] {
  try {
    return new Cron(expression, { timezone, paused: true }).nextRuns(count, from);
  } catch {
    return [];
  }
}

/** A time as the schedule's zone reads it, e.g. "Mon, 7 Dec 2026, 08:00 (Europe/London)". */
export function formatInZone(at: Date | number, timezone: string): string {
  try {
    const text = new Intl.DateTimeFormat('en-GB', {
      timeZone: timezone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
    }).format(at);
    return `${text} (${timezone})`;
  } catch {
    return new Date(at).toISOString();
  }
}
