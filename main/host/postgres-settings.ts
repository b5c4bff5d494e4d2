import { secretEnvName, type PostgresConnectionOptions } from '../../engine/index';
import type { HostSettings } from './host-settings';
import type { SecretStore } from './secret-store';

const SECRET_REF = /^decrypted:([A-Za-z][A-Za-z0-9_]{0,63})$/;

/**
 * The database of `--store postgres` (DUR-04) from the settings. `yukta.postgres.url` is a secret: written
 * as the URL itself (best from the environment, `YUKTA_POSTGRES_URL`) or as `decrypted:<name>`, read from
 * the studio's secret store or `YUKTA_SECRET_<NAME>`. Errors name the setting and the secret, never the URL.
 */
export function postgresConnectionOf(
  settings: HostSettings,
  secrets: SecretStore,
  env: Readonly<Record<string, string | undefined>>,
): PostgresConnectionOptions {
  const raw = settings['yukta.postgres.url'];
  if (!raw) {
    throw new Error(
      'the postgres store needs yukta.postgres.url: set YUKTA_POSTGRES_URL=postgres://user:password@host:5432/database, or put "yukta.postgres.url": "decrypted:<name>" in settings.json with the secret in YUKTA_SECRET_<NAME>',
    );
  }
  const ref = SECRET_REF.exec(raw);
  const url = ref ? (secrets.get(ref[1]!) ?? nonEmpty(env[secretEnvName(ref[1]!)])) : raw;
  if (url === undefined) throw new Error(`yukta.postgres.url: the secret "${ref![1]}" is not set (store it in the studio, or set ${secretEnvName(ref![1]!)})`);
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error(`yukta.postgres.url${ref ? ` (secret "${ref[1]}")` : ''} must be a postgres:// or postgresql:// URL`);
  return {
    url,
    poolSize: settings['yukta.postgres.pool-size'],
    statementTimeoutMs: settings['yukta.postgres.statement-timeout'],
    schema: settings['yukta.postgres.schema'],
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
