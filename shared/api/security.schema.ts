import { z } from 'zod';
import { Identifier } from '../workflow/identifier';
import { Role } from './roles';

/** How a secret value is shown anywhere outside the host (SEC-02): never the value itself. */
export const SECRET_MASK = '••••';

/** An API key's name (SEC-01): the actor of its calls is `key:<name>`. */
export const ApiKeyName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, ".", "_" or "-", at most 64, starting with a letter or digit');

/** Where a key comes from: the settings file, the environment, or created in the studio (revocable). */
export const ApiKeySource = z.enum(['settings', 'environment', 'studio']);

/** An API key as listed: never its value or hash, only a short fingerprint to tell keys apart. */
export const ApiKeyInfo = z.object({
  name: z.string(),
  role: Role,
  /** The sessions this key may touch; null for every session. */
  sessions: z.array(z.string()).nullable(),
  source: ApiKeySource,
  /** First 8 hex digits of the key's SHA-256. */
  fingerprint: z.string(),
  createdAt: z.number().optional(),
});
export type ApiKeyInfo = z.infer<typeof ApiKeyInfo>;

export const CreateApiKeyInput = z.strictObject({
  name: ApiKeyName,
  role: Role,
  /** Limits the key to these sessions; absent for every session. */
  sessions: z.array(Identifier).min(1).max(100).optional(),
});

/** Who is calling (`auth.whoami`): what the studio shows in its app bar, and whether keys are needed at all. */
export const Whoami = z.object({
  actor: z.string(),
  role: Role,
  /** The sessions a scoped key is limited to; null for every session. */
  sessions: z.array(z.string()).nullable(),
  /** True while any API key is set: every HTTP call must then present one (SEC-01). */
  keysRequired: z.boolean(),
});
export type Whoami = z.infer<typeof Whoami>;

/** A key just created: `key` is shown this once and never again (only its hash is kept). */
export const CreatedApiKey = ApiKeyInfo.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

/** A secret's name as written in `decrypted:<name>`; the environment provider reads `YUKTA_SECRET_<NAME>`. */
export const SecretName = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'a letter, then letters, digits or "_", at most 64');

export const SecretSource = z.enum(['store', 'environment']);

/** A secret as listed: its name and where it comes from; the value is always the mask. */
export const SecretInfo = z.object({
  name: z.string(),
  source: SecretSource,
  value: z.literal(SECRET_MASK),
  /** False when the store cannot encrypt (no OS keychain): secrets then come from the environment only. */
  writable: z.boolean(),
});
export type SecretInfo = z.infer<typeof SecretInfo>;

/** Largest secret value accepted (64 KiB). */
export const MAX_SECRET_BYTES = 64 * 1024;
export const SetSecretInput = z.strictObject({ name: SecretName, value: z.string().min(1).max(MAX_SECRET_BYTES) });
