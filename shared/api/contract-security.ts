import { z } from 'zod';
import { op } from './operation-spec';
import { ApiKeyInfo, ApiKeyName, CreateApiKeyInput, CreatedApiKey, SecretInfo, SecretName, SetSecretInput, Whoami } from './security.schema';
import { SetSettingInput, SetSettingResult, SettingsView } from './settings.schema';

/**
 * The StudioApi's settings, sign-in, API key and secret operations (CFG-01, SEC-01, SEC-02): part of the one
 * table `STUDIO_API` (`contract.ts` spreads them in at the end), kept apart so each file holds one area.
 */
export const SETTINGS_AND_SECURITY_OPERATIONS = {
  'settings.get': op({
    summary:
      'Every yukta.* setting (CFG-01): its value, default and source (default, file, env, flag or log), live or at restart, and a value saved for the next start; secrets are masked.',
    input: z.strictObject({}),
    output: SettingsView,
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/settings' },
  }),
  'settings.set': op({
    summary:
      'Change a setting (CFG-01): a live one (the scheduler limits) applies at once and is recorded; another is saved to settings.json for the next start. Reviewed and audited; a bad key or value is refused naming it.',
    input: SetSettingInput,
    output: SetSettingResult,
    role: 'ADMIN',
    http: { method: 'POST', path: '/api/settings' },
  }),
  'auth.whoami': op({
    summary: "Who is calling: actor, role and sessions of the key presented, and whether keys are required (the studio's sign-in).",
    input: z.strictObject({}),
    output: Whoami,
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/auth/whoami' },
  }),
  'apiKeys.list': op({
    summary: 'List API keys (SEC-01): name, role, sessions, source and fingerprint; never a key or its hash.',
    input: z.strictObject({}),
    output: z.array(ApiKeyInfo),
    role: 'ADMIN',
    http: { method: 'GET', path: '/api/settings/api-keys' },
  }),
  'apiKeys.create': op({
    summary: 'Create an API key; the answer carries the key, shown this once (only its hash is kept).',
    input: CreateApiKeyInput,
    output: CreatedApiKey,
    role: 'ADMIN',
    http: { method: 'POST', path: '/api/settings/api-keys' },
  }),
  'apiKeys.revoke': op({
    summary: 'Revoke an API key created in the studio; it stops working at once.',
    input: z.strictObject({ name: ApiKeyName }),
    output: z.object({ revoked: z.literal(true) }),
    role: 'ADMIN',
    http: { method: 'DELETE', path: '/api/settings/api-keys/:name' },
  }),
  'secrets.list': op({
    summary: 'List secrets usable as decrypted:<name> (SEC-02); values are never returned (masked).',
    input: z.strictObject({}),
    output: z.array(SecretInfo),
    role: 'ADMIN',
    http: { method: 'GET', path: '/api/settings/secrets' },
  }),
  'secrets.set': op({
    summary: 'Store a secret, encrypted with the OS keychain (desktop app); the value is never shown back.',
    input: SetSecretInput,
    output: SecretInfo,
    role: 'ADMIN',
    http: { method: 'PUT', path: '/api/settings/secrets/:name' },
  }),
  'secrets.delete': op({
    summary: 'Delete a stored secret.',
    input: z.strictObject({ name: SecretName }),
    output: z.object({ deleted: z.literal(true) }),
    role: 'ADMIN',
    http: { method: 'DELETE', path: '/api/settings/secrets/:name' },
  }),
} as const;
