import { vi } from 'vitest';
import { StudioApiError } from '../../shared/api/errors';
import type { Role } from '../../shared/api/roles';
import { SECRET_MASK, type ApiKeyInfo, type SecretInfo } from '../../shared/api/security.schema';

/** The settings operations of the renderer's fake host: API keys (shown once) and secrets (never shown back). */
export function createFakeSecurity() {
  const keys: ApiKeyInfo[] = [];
  /** The values the fake "stores": tests check they never reach the screen. */
  const secretValues = new Map<string, string>();
  let counter = 0;
  const secretInfo = (name: string): SecretInfo => ({ name, source: 'store', value: SECRET_MASK, writable: true });
  const ops = {
    'auth.whoami': vi.fn(async () => ({ actor: 'ui:local', role: 'ADMIN' as const, sessions: null, keysRequired: false })),
    'apiKeys.list': vi.fn(async () => keys.map((k) => ({ ...k }))),
    'apiKeys.create': vi.fn(async ({ name, role, sessions }: { name: string; role: Role; sessions?: string[] }) => {
      if (keys.some((k) => k.name === name)) throw new StudioApiError('CONFLICT', `an API key named "${name}" exists already`, 'name');
      counter += 1;
      const info: ApiKeyInfo = {
        name,
        role,
        sessions: sessions ?? null,
        source: 'studio',
        fingerprint: `f${String(counter).padStart(7, '0')}`,
        createdAt: counter,
      };
      keys.push(info);
      return { ...info, key: `yk_fake-key-${counter}` };
    }),
    'apiKeys.revoke': vi.fn(async ({ name }: { name: string }) => {
      const index = keys.findIndex((k) => k.name === name);
      if (index < 0) throw new StudioApiError('NOT_FOUND', `no API key named "${name}"`, 'name');
      keys.splice(index, 1);
      return { revoked: true as const };
    }),
    'secrets.list': vi.fn(async () => [...secretValues.keys()].sort().map(secretInfo)),
    'secrets.set': vi.fn(async ({ name, value }: { name: string; value: string }) => {
      secretValues.set(name, value);
      return secretInfo(name);
    }),
    'secrets.delete': vi.fn(async ({ name }: { name: string }) => {
      if (!secretValues.delete(name)) throw new StudioApiError('NOT_FOUND', `no stored secret named "${name}"`, 'name');
      return { deleted: true as const };
    }),
  };
  return { ops, keys, secretValues };
}
