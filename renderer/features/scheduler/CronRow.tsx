import type { CronTriggerInfo } from '../../../shared/api/triggers.schema';
import { cronInWords, formatInZone } from './cron-reading';

/** One schedule: where, the expression in words, the next fire and the newest fire handled. */
export default function CronRow({ trigger: t }: { trigger: CronTriggerInfo }) {
  const words = cronInWords(t.expression);
  const where = t.session === 'default' ? t.workflowId : `${t.session}/${t.workflowId}`;
  return (
    <tr data-testid={`cron-row-${t.workflowId}-${t.nodeId}`}>
      <td>
        {where} · <code>{t.nodeId}</code>
      </td>
      <td title={t.expression}>{words.ok ? words.text : t.expression}</td>
      <td data-testid={`cron-next-${t.workflowId}-${t.nodeId}`}>{t.nextFireAt === null ? 'never again' : formatInZone(t.nextFireAt, t.timezone)}</td>
      <td data-testid={`cron-last-${t.workflowId}-${t.nodeId}`}>
        {t.lastFire ? (
          <>
            {formatInZone(t.lastFire.scheduledAt, t.timezone)} · {t.lastFire.outcome.toLowerCase()}
            {t.lastFire.missed > 0 ? ` (${t.lastFire.missed} missed)` : ''}
            {t.lastFire.executionId ? (
              <>
                {' '}
                · run <code>{t.lastFire.executionId.slice(0, 8)}</code>
              </>
            ) : null}
            {t.lastFire.error ? <span className="field-error"> {t.lastFire.error}</span> : null}
          </>
        ) : (
          <span className="muted">not fired yet</span>
        )}
      </td>
    </tr>
  );
}
