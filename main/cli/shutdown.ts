import { type LoadedSettings, loadSettings } from '../host/loaded-settings';
import { SettingsError } from '../host/settings-sources';
import { CliError, EXIT_FAILED, EXIT_USAGE, type CliIo } from './cli-io';

/**
 * The settings of a CLI command (CFG-01): `<data>/settings.json` when there is a data folder, the `YUKTA_*`
 * environment and `--set` flags. A refused one ends the command with its one line and exit code 2.
 */
export function cliSettings(dataDir: string | null, flags: readonly string[], env: NodeJS.ProcessEnv = process.env): LoadedSettings {
  try {
    return loadSettings({ dataDir, env, flags });
  } catch (error) {
    if (error instanceof SettingsError) throw new CliError(`cannot start: ${error.message}`, EXIT_USAGE);
    throw error;
  }
}

/** Resolves on the first SIGINT or SIGTERM (for commands with nothing to drain, such as `yukta mcp`). */
export function stopSignal(): Promise<NodeJS.Signals> {
  const signals = stopSignals({ out: () => undefined, err: () => undefined }, () => undefined);
  return signals.first.finally(() => signals.dispose());
}

export interface StopSignals {
  /** Resolves on the first SIGINT or SIGTERM. */
  readonly first: Promise<NodeJS.Signals>;
  /** Stops listening (once the shutdown is done). */
  dispose(): void;
}

/**
 * Shutdown signals (ADM-01): the first SIGINT/SIGTERM starts a graceful shutdown; a second one exits at once
 * with code 1, without waiting for running runs (the stores are crash-safe: DUR-01 recovers at the next start).
 */
export function stopSignals(io: CliIo, exit: (code: number) => void = (code) => process.exit(code)): StopSignals {
  let seen = false;
  let resolveFirst!: (signal: NodeJS.Signals) => void;
  const first = new Promise<NodeJS.Signals>((resolve) => (resolveFirst = resolve));
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!seen) {
      seen = true;
      resolveFirst(signal);
      return;
    }
    io.err(`${signal} again: exiting now without waiting for running runs.`);
    exit(EXIT_FAILED);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    first,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
