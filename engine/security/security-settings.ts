import { DEFAULT_MAX_DEPTH } from '../../shared/json/json-limits';

/** Megabyte in bytes. */
const MIB = 1024 * 1024;

/**
 * The engine's execution safety settings (SEC-02, SEC-03, EXT-03). The host reads them from
 * `<data>/settings.json` and the environment (`yukta.*` keys); plugins read them through `ctx.services.limits`.
 */
export interface SecuritySettings {
  http: {
    /** `yukta.http.allow-private`: let HTTP nodes reach loopback, private, link-local and metadata addresses. */
    allowPrivate: boolean;
    /** `yukta.http.allowed-addresses`: addresses or CIDR ranges reachable even though private (e.g. one internal host). */
    allowedAddresses: readonly string[];
    /** `yukta.http.max-response-bytes`: a longer response body fails the request. */
    maxResponseBytes: number;
    /** `yukta.http.max-redirects`: redirects followed per request, each target checked again. */
    maxRedirects: number;
  };
  process: {
    /** `yukta.process.enabled`: PROCESS_EXECUTOR (and MCP stdio servers) run only when true. */
    enabled: boolean;
    /** `yukta.process.allowed-commands`: commands that may run, compared as written (use absolute paths). */
    allowedCommands: readonly string[];
  };
  variables: {
    /** `yukta.variables.allowed`: extra names `${env.X}` / `${sys.x}` may read (secret-like names stay refused). */
    allowed: readonly string[];
    /** `yukta.var.*` values, read as `${sys.yukta.var.x}`. */
    values: Readonly<Record<string, string>>;
  };
  /** `yukta.execution.max-message-bytes`: largest start payload or node output (JSON size). */
  maxMessageBytes: number;
  /** `yukta.execution.max-depth`: deepest JSON nesting of a start payload or node output. */
  maxDepth: number;
  /** `yukta.llm.rate-limit.<provider>`: requests per minute per provider, across all runs. */
  llmRateLimits: Readonly<Record<string, number>>;
}

export const DEFAULT_SECURITY_SETTINGS: SecuritySettings = {
  http: { allowPrivate: false, allowedAddresses: [], maxResponseBytes: 10 * MIB, maxRedirects: 5 },
  process: { enabled: false, allowedCommands: [] },
  variables: { allowed: [], values: {} },
  maxMessageBytes: 10 * MIB,
  maxDepth: DEFAULT_MAX_DEPTH,
  llmRateLimits: {},
};

/** Settings as given, over the defaults (one level deep). */
export interface SecuritySettingsPatch {
  http?: Partial<SecuritySettings['http']>;
  process?: Partial<SecuritySettings['process']>;
  variables?: Partial<SecuritySettings['variables']>;
  maxMessageBytes?: number;
  maxDepth?: number;
  llmRateLimits?: SecuritySettings['llmRateLimits'];
}

export function resolveSecuritySettings(patch: SecuritySettingsPatch = {}): SecuritySettings {
  const d = DEFAULT_SECURITY_SETTINGS;
  return {
    http: { ...d.http, ...patch.http },
    process: { ...d.process, ...patch.process },
    variables: { ...d.variables, ...patch.variables },
    maxMessageBytes: patch.maxMessageBytes ?? d.maxMessageBytes,
    maxDepth: patch.maxDepth ?? d.maxDepth,
    llmRateLimits: { ...d.llmRateLimits, ...patch.llmRateLimits },
  };
}
