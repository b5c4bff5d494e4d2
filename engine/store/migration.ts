/** One schema change of a database (SQLite file or PostgreSQL), applied once, in `version` order. */
export interface Migration {
  /** 1, 2, 3, … without gaps; recorded in `schema_version`. */
  version: number;
  name: string;
  sql: string;
}
