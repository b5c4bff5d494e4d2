import type { FastifyInstance } from 'fastify';
import { StudioApiError } from '../../shared/api/errors';
import { METRICS_HTTP_PATH } from '../../shared/api/metrics.schema';
import { roleAllows } from '../../shared/api/roles';
import type { StudioHost } from '../host/studio-host';
import type { CallerResolver } from './caller';
import { apiErrorFromThrown, sendApiError } from './http-errors';

/**
 * `GET /metrics` (OBS-04): the engine's meters in the Prometheus text exposition format, from the engine's
 * own registry. Reading needs role VIEWER (SEC-01: a key, or loopback while no key exists); a key limited to
 * sessions is refused, since the meters cover every session.
 */
export function registerMetricsRoute(app: FastifyInstance, host: StudioHost, resolveCaller: CallerResolver): void {
  app.get(METRICS_HTTP_PATH, async (request, reply) => {
    try {
      const caller = resolveCaller(request);
      if (!roleAllows(caller.role, 'VIEWER')) throw new StudioApiError('FORBIDDEN', `metrics need role VIEWER; ${caller.actor} has ${caller.role}`);
      if (caller.sessions)
        throw new StudioApiError('FORBIDDEN', `${caller.actor} is limited to session(s) ${caller.sessions.join(', ')}; the metrics concern every session`);
      const metrics = host.engine.metrics;
      const text = await metrics.text();
      return reply.code(200).header('Cache-Control', 'no-store').type(metrics.contentType).send(text);
    } catch (error) {
      return sendApiError(
        reply,
        apiErrorFromThrown(error, (e, id) => host.reportInternalError(e, id)),
      );
    }
  });
}
