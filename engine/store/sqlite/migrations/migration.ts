/** One schema change of the SQLite database, applied once, in `version` order. */
export interface Migration {
  /** 1, 2, 3, … without gaps; recorded in `schema_version`. */
  version: number;
  name: string;
  sql: string;
}
