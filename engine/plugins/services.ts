import type { LookupFunction } from 'node:net';
import { ProviderRateLimiter } from '../budgets/provider-rate-limiter';
import { RunBudgets } from '../budgets/run-budgets';
import { SystemClock, type Clock } from '../runtime/clock';
import { GuardedHttpClient } from '../security/guarded-http';
import { networkPolicyOf } from '../security/network-guard';
import { ScriptSandbox } from '../security/script-sandbox';
import { chainSecrets, environmentSecrets, SecretRedactor, SecretResolver, type SecretProvider } from '../security/secrets';
import { resolveSecuritySettings, type SecuritySettings, type SecuritySettingsPatch } from '../security/security-settings';
import { AllowListVariables, type VariableSource } from '../security/variables';

/**
 * Engine capabilities a plugin reaches through `ctx.services` (SEC-02, SEC-03, EXT-03), shared by every run
 * of an engine. They are capabilities, not engine options: limits to respect, variables and secrets to
 * resolve, the engine's clock.
 */
export interface PluginServices {
  /** Execution safety settings (SEC-03): network, processes, sizes, rate limits. */
  readonly limits: SecuritySettings;
  /** `${env.X}` / `${sys.x}` through the allow-list (SEC-02). */
  readonly variables: VariableSource;
  /** `decrypted:<name>` references, for fields that leave the engine (headers, keys, environments). */
  readonly secrets: SecretResolver;
  /** HTTP under the network policy (SEC-03): addresses checked after DNS and on every redirect, sizes capped. */
  readonly http: GuardedHttpClient;
  /** The SCRIPT sandbox (QuickJS in WASM, on worker threads). */
  readonly scripts: ScriptSandbox;
  /** LLM and MCP use per run across nodes, checked against node budgets (EXT-03). */
  readonly budgets: RunBudgets;
  /** `yukta.llm.rate-limit.<provider>`: spaces LLM calls per provider across all runs (EXT-03). */
  readonly rateLimits: ProviderRateLimiter;
  /** The engine clock's time (virtual in tests). */
  now(): number;
  /** Waits on the engine clock (not paused with the node: for network deadlines); rejects when `signal` fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** How an engine is secured (SEC-02, SEC-03): settings, where secrets come from, the environment variables read. */
export interface EngineSecurityOptions {
  settings?: SecuritySettingsPatch;
  /** Stored secrets (the desktop app's keychain store); `YUKTA_SECRET_<NAME>` of `env` is always asked after them. */
  secrets?: SecretProvider;
  /** The environment for `${env.X}` and `YUKTA_SECRET_*` (default: this process's). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Resolves host names for outgoing requests (tests point names at local servers); the system resolver by default. */
  lookup?: LookupFunction;
}

/** The services of one engine; `redactor` masks resolved secrets in everything the engine publishes. */
export function createPluginServices(options: EngineSecurityOptions, clock: Clock): PluginServices & { readonly redactor: SecretRedactor } {
  const limits = resolveSecuritySettings(options.settings);
  const env = options.env ?? process.env;
  const redactor = new SecretRedactor();
  const fromEnv = environmentSecrets(env);
  const provider = options.secrets ? chainSecrets([options.secrets, fromEnv]) : fromEnv;
  return {
    limits,
    variables: new AllowListVariables({ env, allowed: limits.variables.allowed, settingsVars: limits.variables.values }),
    secrets: new SecretResolver(provider, redactor),
    redactor,
    http: new GuardedHttpClient(networkPolicyOf(limits.http, options.lookup), limits.http),
    scripts: new ScriptSandbox(),
    budgets: new RunBudgets(),
    rateLimits: new ProviderRateLimiter(clock, limits.llmRateLimits),
    now: () => clock.now(),
    sleep: (ms, signal) => clockSleep(clock, ms, signal),
  };
}

function clockSleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clock.clearTimer(handle);
      reject(signal!.reason);
    };
    const handle = clock.setTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

let fallback: PluginServices | null = null;

/** Services for a run built without an engine (tests of the runtime): defaults, this process's environment. */
export function defaultPluginServices(): PluginServices {
  return (fallback ??= createPluginServices({}, new SystemClock()));
}
