// The Durability group of the settings table (DUR-01…04), spread into SETTINGS in settings-table.ts.
import { optionalSetting, setting } from './setting-spec';
import { MIB, restart } from './settings-row-presets';
import { bytes, choice, count, duration, flag, text } from './setting-values';

/** A PostgreSQL schema name as the postgres store accepts it (unquoted, so written as is in `search_path`). */
const schemaName = text(1, {
  regex: /^[a-z_][a-z0-9_]{0,62}$/,
  what: 'a schema name: lower-case letters, digits and _ (at most 63), starting with a letter or _',
});

export const DURABILITY_SETTINGS = {
  // Durability (DUR-01…03): relative folders are under the data folder.
  'yukta.execution-log.dir': optionalSetting({
    value: text(),
    ...restart,
    group: 'Durability',
    card: 'DUR-01',
    description: "Keep the execution log as executions.jsonl in this folder instead of the store's own (not with the memory store).",
  }),
  'yukta.execution-log.fsync': setting({
    value: flag(),
    default: false,
    ...restart,
    group: 'Durability',
    card: 'DUR-01',
    description: 'fsync every log write (SQLite: synchronous=FULL).',
  }),
  'yukta.execution-log.retained-runs': setting({
    value: count(1),
    default: 1000,
    ...restart,
    group: 'Durability',
    card: 'DUR-01',
    description: 'Newest runs the log keeps; a run without an end is never dropped.',
  }),
  'yukta.execution-log.compact-after': setting({
    value: count(1),
    default: 10_000,
    ...restart,
    group: 'Durability',
    card: 'DUR-01',
    description: 'Appends between two trims of the log.',
  }),
  'yukta.restart.dir': optionalSetting({
    value: text(),
    ...restart,
    group: 'Durability',
    card: 'DUR-02',
    description: "Keep checkpoints as files in this folder instead of the store's own (not with the memory store).",
  }),
  'yukta.restart.spill-dir': optionalSetting({
    value: text(),
    ...restart,
    group: 'Durability',
    card: 'DUR-02',
    description: "Where the memory checkpoint store moves a node's output that passes a cap.",
  }),
  'yukta.restart.auto-resume': setting({
    value: flag(),
    default: false,
    ...restart,
    group: 'Durability',
    card: 'DUR-03',
    description: 'Resume interrupted runs after boot, one after another.',
  }),
  'yukta.restart.retained-executions': setting({
    value: count(),
    default: 100,
    ...restart,
    group: 'Durability',
    card: 'CTL-04',
    description: 'Finished runs kept restartable (graph, payload, recorded outputs).',
  }),
  'yukta.restart.max-messages-per-node': setting({
    value: count(1),
    default: 10_000,
    ...restart,
    group: 'Durability',
    card: 'DUR-02',
    description: 'Messages the memory checkpoint store keeps per node.',
  }),
  'yukta.restart.max-bytes-per-node': setting({
    value: bytes(1),
    default: 16 * MIB,
    ...restart,
    group: 'Durability',
    card: 'DUR-02',
    description: 'Bytes the memory checkpoint store keeps per node.',
  }),
  // Stores (DUR-04): the kind (`--store` wins) and the PostgreSQL database of the `postgres` kind.
  'yukta.store': optionalSetting({
    value: choice(['sqlite', 'file', 'memory', 'postgres']),
    ...restart,
    group: 'Durability',
    card: 'DUR-04',
    description: 'Where definitions, the execution log and checkpoints live (--store wins; unset: sqlite in a data folder, memory without one).',
  }),
  'yukta.postgres.url': optionalSetting({
    value: text(),
    ...restart,
    group: 'Durability',
    card: 'DUR-04',
    secret: true,
    description:
      "The postgres store's database: postgres://user:password@host:port/database (best from YUKTA_POSTGRES_URL) or decrypted:<secret name>; never logged or returned.",
  }),
  'yukta.postgres.pool-size': setting({
    value: count(1, 1000),
    default: 10,
    ...restart,
    group: 'Durability',
    card: 'DUR-04',
    description: "Connections the postgres store opens at most, its writer's included.",
  }),
  'yukta.postgres.statement-timeout': setting({
    value: duration(),
    default: 30_000,
    ...restart,
    group: 'Durability',
    card: 'DUR-04',
    description: 'A statement of the postgres store running longer is cancelled by the server (0 = no limit).',
  }),
  'yukta.postgres.schema': setting({
    value: schemaName,
    default: 'public',
    ...restart,
    group: 'Durability',
    card: 'DUR-04',
    description: "The schema the postgres store's tables live in (created if missing).",
  }),
};
