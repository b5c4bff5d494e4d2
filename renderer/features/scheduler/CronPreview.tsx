import { CalendarClock } from 'lucide-react';
import { useMemo } from 'react';
import { cronInWords, formatInZone, nextFires } from './cron-reading';

const FIRES = 5;

/** In the inspector of a CRON_TRIGGER (issue 15 item 10): the expression in words and its next 5 fires in its time zone. */
export default function CronPreview({ config }: { config: Record<string, unknown> }) {
  const expression = typeof config['expression'] === 'string' ? config['expression'] : '';
  const timezone = typeof config['timezone'] === 'string' && config['timezone'] ? config['timezone'] : 'UTC';
  const words = useMemo(() => cronInWords(expression), [expression]);
  const fires = useMemo(() => (words.ok ? nextFires(expression, timezone, FIRES) : []), [words, expression, timezone]);
  return (
    <section className="cron-preview" aria-label="Schedule" data-testid="cron-preview">
      <div className="field-label">
        <CalendarClock size={12} aria-hidden="true" /> Schedule
      </div>
      {words.ok ? (
        <p className="cron-words" data-testid="cron-words">
          {words.text} ({timezone})
        </p>
      ) : (
        <p className="field-error" role="alert" data-testid="cron-words-error">
          Cannot read “{expression}”: {words.error}
        </p>
      )}
      {fires.length > 0 && (
        <ol className="cron-fires" aria-label={`Next ${FIRES} fires`} data-testid="cron-next-fires">
          {fires.map((at) => (
            <li key={at.getTime()}>{formatInZone(at, timezone)}</li>
          ))}
        </ol>
      )}
      {words.ok && fires.length === 0 && <p className="field-hint">It never fires again (or the time zone “{timezone}” is unknown).</p>}
    </section>
  );
}
