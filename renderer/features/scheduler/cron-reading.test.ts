import { describe, expect, it } from 'vitest';
import { cronInWords, formatInZone, nextFires } from './cron-reading';

describe('issue 15 item 10: the Cron inspector reads the expression and lists the next fires', () => {
  it('reads an expression in words, and names what is wrong with a bad one', () => {
    expect(cronInWords('0 8 * * 1-5')).toEqual({ ok: true, text: 'At 08:00, Monday through Friday' });
    expect(cronInWords('*/15 * * * *')).toEqual({ ok: true, text: 'Every 15 minutes' });
    expect(cronInWords('not a cron').ok).toBe(false);
  });

  it('lists the next 5 fires in the schedule time zone (London is UTC+0 in December)', () => {
    const from = new Date('2026-12-04T09:00:00Z'); // a Friday, after 08:00
    const fires = nextFires('0 8 * * 1-5', 'Europe/London', 5, from).map((d) => d.toISOString());
    expect(fires).toEqual([
      '2026-12-07T08:00:00.000Z',
      '2026-12-08T08:00:00.000Z',
      '2026-12-09T08:00:00.000Z',
      '2026-12-10T08:00:00.000Z',
      '2026-12-11T08:00:00.000Z',
    ]);
    expect(nextFires('0 8 * * *', 'America/New_York', 1, from)[0]?.toISOString()).toBe('2026-12-04T13:00:00.000Z');
    expect(nextFires('bad', 'UTC', 5, from)).toEqual([]);
  });

  it('formats a fire as its zone reads it', () => {
    expect(formatInZone(new Date('2026-12-07T13:00:00Z'), 'America/New_York')).toBe('Mon, 7 Dec 2026, 08:00 (America/New_York)');
  });
});
