// The database interface every repository is written against, apart from how one is opened
// (db.ts), so the PGlite thread and the availability watch can name it without importing db.ts.

export interface Queryable {
  query<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<T[]>;
}

export interface QueryOptions {
  /**
   * A read that takes long (a page of a whole table, an export): on PGlite, whose one connection
   * runs one query at a time, it waits behind the short queries waiting with it instead of ahead
   * of them, so a dashboard is not stuck behind a table. PostgreSQL runs it like any other.
   */
  long?: boolean;
}

export interface Db extends Queryable {
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
  /**
   * The connections and the calls waiting for one now: PostgreSQL's pool, or PGlite's one
   * connection and the calls lined up for it in its thread.
   */
  poolStats?(): PoolStats;
}

export interface PoolStats {
  /** Connections open (PGlite: 1). */
  total: number;
  /** Connections open and not in use. */
  idle: number;
  /** Calls waiting for a connection. */
  waiting: number;
}
