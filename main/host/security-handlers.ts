import { StudioApiError } from '../../shared/api/errors';
import { SECRET_MASK, type SecretInfo } from '../../shared/api/security.schema';
import type { ApiKeyRegistry } from './api-keys';
import type { OperationHandlers } from './operation-handlers';
import type { SecretStore } from './secret-store';

type SecurityOperations = 'auth.whoami' | 'apiKeys.list' | 'apiKeys.create' | 'apiKeys.revoke' | 'secrets.list' | 'secrets.set' | 'secrets.delete';

export interface SecurityServices {
  apiKeys: ApiKeyRegistry;
  secretStore: SecretStore;
  /** Names of secrets set as `YUKTA_SECRET_<NAME>` in the environment. */
  environmentSecretNames(): string[];
}

/**
 * Settings operations for API keys (SEC-01) and secrets (SEC-02), STU-07: a created key is answered once;
 * secret values go in and never come back (every listing shows the mask).
 */
export function createSecurityHandlers(services: SecurityServices): Pick<OperationHandlers, SecurityOperations> {
  const { apiKeys, secretStore } = services;
  const info = (name: string, source: SecretInfo['source']): SecretInfo => ({ name, source, value: SECRET_MASK, writable: secretStore.writable });
  return {
    'auth.whoami': async (_input, caller) => ({
      actor: caller.actor,
      role: caller.role,
      sessions: caller.sessions ? [...caller.sessions] : null,
      keysRequired: apiKeys.enabled,
    }),
    'apiKeys.list': async () => apiKeys.list(),
    'apiKeys.create': async (input) => apiKeys.create(input),
    'apiKeys.revoke': async ({ name }) => (apiKeys.revoke(name), { revoked: true as const }),
    'secrets.list': async () => {
      const stored = secretStore.names();
      const fromEnv = services.environmentSecretNames().filter((n) => !stored.some((s) => s.toUpperCase() === n.toUpperCase()));
      return [...stored.map((n) => info(n, 'store')), ...fromEnv.map((n) => info(n, 'environment'))];
    },
    'secrets.set': async ({ name, value }) => {
      if (!secretStore.writable) {
        throw new StudioApiError(
          'UNAVAILABLE',
          `secrets are stored only where they can be encrypted: in the desktop app (OS keychain), or with yukta.secrets.key set (YUKTA_SECRETS_KEY); here set YUKTA_SECRET_${name.toUpperCase()} in the environment`,
          'name',
        );
      }
      secretStore.set(name, value);
      return info(name, 'store');
    },
    'secrets.delete': async ({ name }) => {
      if (!secretStore.delete(name)) throw new StudioApiError('NOT_FOUND', `no stored secret named "${name}"`, 'name');
      return { deleted: true as const };
    },
  };
}
