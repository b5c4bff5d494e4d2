import type { FastifyRequest } from 'fastify';
import type { Caller } from '../../shared/api/roles';

/**
 * Resolves who is calling from a request. The API-key work replaces the default with one that reads
 * `Authorization: Bearer` / `X-API-Key`; it throws a StudioApiError (UNAUTHORIZED) to refuse.
 */
export type CallerResolver = (request: FastifyRequest) => Caller;

/** The HTTP caller while no API key is set: the loopback user is ADMIN (SEC-01). */
export const LOCAL_HTTP_CALLER: Caller = { actor: 'http:local', role: 'ADMIN' };

export const localAdminCaller: CallerResolver = () => LOCAL_HTTP_CALLER;
