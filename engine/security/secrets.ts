import { DEFAULT_MAX_DEPTH } from '../../shared/json/json-limits';
import { SECRET_MASK } from '../../shared/api/security.schema';
import { BadInputError } from '../runtime/errors';

/** Where `decrypted:<name>` values come from (SEC-02). The desktop app adds a store encrypted with the OS keychain. */
export interface SecretProvider {
  get(name: string): string | undefined;
}

/** The default provider reads `YUKTA_SECRET_<NAME>` (name upper-cased). */
export const SECRET_ENV_PREFIX = 'YUKTA_SECRET_';

export function secretEnvName(name: string): string {
  return `${SECRET_ENV_PREFIX}${name.toUpperCase()}`;
}

/** Secrets from the environment: `decrypted:openai` reads `YUKTA_SECRET_OPENAI`. */
export function environmentSecrets(env: Readonly<Record<string, string | undefined>>): SecretProvider & { names(): string[] } {
  return {
    get: (name) => {
      const value = env[secretEnvName(name)];
      return value === undefined || value === '' ? undefined : value;
    },
    names: () =>
      Object.keys(env)
        .filter((k) => k.startsWith(SECRET_ENV_PREFIX) && k.length > SECRET_ENV_PREFIX.length && env[k])
        .map((k) => k.slice(SECRET_ENV_PREFIX.length)),
  };
}

/** The first provider that knows a name wins. */
export function chainSecrets(providers: readonly SecretProvider[]): SecretProvider {
  return {
    get(name) {
      for (const p of providers) {
        const value = p.get(name);
        if (value !== undefined) return value;
      }
      return undefined;
    },
  };
}

/**
 * How deep masking looks into a value: twice `yukta.execution.max-depth`'s default, so every message the
 * limits let through is masked whole (it was 64, below the 128 levels a message may have), and far from
 * where this recursion could overflow (bench/recursion-limits.ts: the routines it sits beside overflow
 * past 1,600 levels).
 */
export const MAX_MASKED_DEPTH = 2 * DEFAULT_MAX_DEPTH;

/** Values shorter than this are not masked in output (masking "a" everywhere would hide nothing and break everything). */
export const MIN_MASKED_LENGTH = 4;

/**
 * Masks every secret value the engine has resolved in text leaving it (events, logs, errors): defence in
 * depth behind the rule that secrets are resolved only where a request is sent, never into a message.
 */
export class SecretRedactor {
  private readonly values = new Set<string>();
  private ordered: string[] = [];

  add(value: string): void {
    if (value.length < MIN_MASKED_LENGTH) return;
    // As written in a JSON text too (quotes and backslashes escaped).
    for (const form of [value, JSON.stringify(value).slice(1, -1)]) {
      if (!this.values.has(form)) {
        this.values.add(form);
        this.ordered = [...this.values].sort((a, b) => b.length - a.length);
      }
    }
  }

  get active(): boolean {
    return this.values.size > 0;
  }

  redactText(text: string): string {
    let out = text;
    for (const value of this.ordered) if (out.includes(value)) out = out.split(value).join(SECRET_MASK);
    return out;
  }

  /** A copy of `value` with secrets masked in every string; the same object when nothing was masked. */
  redact<T>(value: T): T {
    return this.active ? (this.walk(value, 0) as T) : value;
  }

  private walk(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.redactText(value);
    if (value === null || typeof value !== 'object' || depth > MAX_MASKED_DEPTH) return value;
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((v) => {
        const r = this.walk(v, depth + 1);
        if (r !== v) changed = true;
        return r;
      });
      return changed ? out : value;
    }
    let copy: Record<string, unknown> | null = null;
    for (const [k, v] of Object.entries(value)) {
      const r = this.walk(v, depth + 1);
      if (r !== v) (copy ??= { ...(value as Record<string, unknown>) })[k] = r;
    }
    return copy ?? value;
  }
}

const SECRET_REF = /decrypted:([A-Za-z][A-Za-z0-9_]{0,63})/g;

/**
 * Resolves `decrypted:<name>` references in the fields of a node that leave the engine (HTTP headers and
 * bodies, API keys, process and MCP environments), never in a message. Every value resolved is masked in
 * output from then on. A missing secret is a BadInputError naming the secret, never showing a value.
 */
export class SecretResolver {
  constructor(
    private readonly provider: SecretProvider,
    readonly redactor: SecretRedactor,
  ) {}

  resolve(text: string): string {
    if (!text.includes('decrypted:')) return text;
    return text.replace(SECRET_REF, (_m, name: string) => this.value(name));
  }

  /** One secret's value (masked in output from now on). */
  value(name: string): string {
    const value = this.provider.get(name);
    if (value === undefined) throw new BadInputError(`secret "${name}" is not set (store it in Settings or set ${secretEnvName(name)})`, 'SECRET_MISSING');
    this.redactor.add(value);
    return value;
  }

  /** Resolves references in every string of a JSON value. */
  resolveDeep(value: unknown): unknown {
    if (typeof value === 'string') return this.resolve(value);
    if (Array.isArray(value)) return value.map((v) => this.resolveDeep(v));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.resolveDeep(v)]));
    return value;
  }
}
