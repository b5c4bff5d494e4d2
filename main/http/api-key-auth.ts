import type { FastifyRequest } from 'fastify';
import { StudioApiError } from '../../shared/api/errors';
import type { ApiKeyRegistry } from '../host/api-keys';
import { localAdminCaller, type CallerResolver } from './caller';

type Headers = FastifyRequest['headers'];

/** The key a request presents (SEC-01): `Authorization: Bearer <key>` or `X-API-Key: <key>`; null when none. */
export function presentedKey(headers: Headers): string | null {
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    if (match) return match[1]!;
  }
  const header = headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  return null;
}

/**
 * Resolves the caller from the request's API key while any key exists (a missing or wrong key is 401);
 * with no key at all, the loopback user (the Host/Origin filter guards that case).
 */
export function apiKeyCallerResolver(keys: ApiKeyRegistry, withoutKeys: CallerResolver = localAdminCaller): CallerResolver {
  return (request) => {
    if (!keys.enabled) return withoutKeys(request);
    const key = presentedKey(request.headers);
    if (key === null) throw new StudioApiError('UNAUTHORIZED', 'an API key is required: send Authorization: Bearer <key> or X-API-Key: <key>');
    const caller = keys.authenticate(key);
    if (!caller) throw new StudioApiError('UNAUTHORIZED', 'the API key is not valid');
    return caller;
  };
}
