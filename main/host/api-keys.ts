import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { StudioApiError } from '../../shared/api/errors';
import { Role, type Caller } from '../../shared/api/roles';
import type { ApiKeyInfo, CreatedApiKey } from '../../shared/api/security.schema';
import { readJsonFile, writeJsonFileAtomic } from './json-file';

/** A key from configuration (`yukta.api-key`, `yukta.api-keys[]`): the key as plain text or `sha256:<hex>`. */
export interface ConfiguredApiKey {
  name: string;
  key: string;
  role: Role;
  sessions?: readonly string[] | null | undefined;
  source: 'settings' | 'environment';
}

interface KeyEntry {
  name: string;
  role: Role;
  sessions: string[] | null;
  digest: Buffer;
  source: ApiKeyInfo['source'];
  createdAt?: number;
}

/** A studio-made key as stored: only its SHA-256. */
interface StoredKey {
  name: string;
  role: Role;
  sessions: string[] | null;
  sha256: string;
  createdAt: number;
}

const SHA256_PREFIX = 'sha256:';
/** Prefix of keys the studio makes, so a leaked one is easy to recognise (e.g. by secret scanners). */
export const GENERATED_KEY_PREFIX = 'yk_';

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The digest a configured key stands for: `sha256:<64 hex>` as given, anything else hashed. */
export function keyDigest(key: string): Buffer {
  if (key.startsWith(SHA256_PREFIX)) {
    const hex = key.slice(SHA256_PREFIX.length);
    if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error('an API key written sha256:<hex> needs 64 hex digits');
    return Buffer.from(hex, 'hex');
  }
  if (key.length < 16) throw new Error('an API key must be at least 16 characters long');
  return sha256(key);
}

/**
 * The API keys of a host (SEC-01): configured keys (settings file, environment) and keys created in the
 * studio (kept as SHA-256 in `api-keys.json` of the data folder). Several keys can be valid at once, so a
 * key is rotated by creating the new one, moving clients, then revoking the old one.
 */
export class ApiKeyRegistry {
  private readonly configured: KeyEntry[];
  private managed: KeyEntry[];

  constructor(
    configured: readonly ConfiguredApiKey[] = [],
    private readonly file: string | null = null,
    private readonly now: () => number = Date.now,
  ) {
    this.configured = configured.map((k) => ({
      name: k.name,
      role: k.role,
      sessions: k.sessions ? [...k.sessions] : null,
      digest: keyDigest(k.key),
      source: k.source,
    }));
    const names = new Set<string>();
    for (const k of this.configured) {
      if (names.has(k.name)) throw new Error(`API key name "${k.name}" is configured twice`);
      names.add(k.name);
    }
    this.managed = this.load().filter((k) => !names.has(k.name));
  }

  /** True once any key exists: every API request must then present one. */
  get enabled(): boolean {
    return this.configured.length + this.managed.length > 0;
  }

  /**
   * The caller a presented key stands for, or null. Compares SHA-256 digests with `timingSafeEqual` against
   * every key, without stopping at a match, so the time taken says nothing about which key (or how much of
   * it) matched.
   */
  authenticate(presented: string): Caller | null {
    const digest = sha256(presented);
    let found: KeyEntry | null = null;
    for (const entry of this.all()) {
      if (timingSafeEqual(digest, entry.digest) && found === null) found = entry;
    }
    if (!found) return null;
    return found.sessions ? { actor: `key:${found.name}`, role: found.role, sessions: found.sessions } : { actor: `key:${found.name}`, role: found.role };
  }

  list(): ApiKeyInfo[] {
    return this.all().map((k) => ({
      name: k.name,
      role: k.role,
      sessions: k.sessions,
      source: k.source,
      fingerprint: k.digest.toString('hex').slice(0, 8),
      ...(k.createdAt !== undefined ? { createdAt: k.createdAt } : {}),
    }));
  }

  /** Makes a new key; its value is in the answer only (the registry keeps its hash). */
  create(input: { name: string; role: Role; sessions?: readonly string[] | undefined }): CreatedApiKey {
    if (this.all().some((k) => k.name === input.name)) throw new StudioApiError('CONFLICT', `an API key named "${input.name}" exists already`, 'name');
    const key = `${GENERATED_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const entry: KeyEntry = {
      name: input.name,
      role: input.role,
      sessions: input.sessions ? [...new Set(input.sessions)] : null,
      digest: sha256(key),
      source: 'studio',
      createdAt: this.now(),
    };
    this.managed = [...this.managed, entry];
    this.save();
    const [info] = this.list().filter((k) => k.name === entry.name);
    return { ...info!, key };
  }

  /** Revokes a studio-made key; configured keys are removed from their configuration instead. */
  revoke(name: string): void {
    if (this.configured.some((k) => k.name === name)) {
      throw new StudioApiError('CONFLICT', `API key "${name}" comes from the ${this.configured.find((k) => k.name === name)!.source}; remove it there`, 'name');
    }
    if (!this.managed.some((k) => k.name === name)) throw new StudioApiError('NOT_FOUND', `no API key named "${name}"`, 'name');
    this.managed = this.managed.filter((k) => k.name !== name);
    this.save();
  }

  private all(): KeyEntry[] {
    return [...this.configured, ...this.managed];
  }

  private load(): KeyEntry[] {
    if (!this.file) return [];
    const stored = readJsonFile(this.file);
    if (!Array.isArray(stored)) return [];
    return (stored as StoredKey[])
      .filter((k) => k && typeof k.name === 'string' && Role.safeParse(k.role).success && typeof k.sha256 === 'string' && /^[0-9a-f]{64}$/.test(k.sha256))
      .map((k) => ({
        name: k.name,
        role: k.role,
        sessions: Array.isArray(k.sessions) ? k.sessions : null,
        digest: Buffer.from(k.sha256, 'hex'),
        source: 'studio' as const,
        createdAt: k.createdAt,
      }));
  }

  private save(): void {
    if (!this.file) return;
    const stored: StoredKey[] = this.managed.map((k) => ({
      name: k.name,
      role: k.role,
      sessions: k.sessions,
      sha256: k.digest.toString('hex'),
      createdAt: k.createdAt ?? 0,
    }));
    writeJsonFileAtomic(this.file, stored);
  }
}
