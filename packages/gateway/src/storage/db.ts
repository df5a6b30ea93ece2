// One small database interface over embedded PGlite and a real PostgreSQL server, so every
// repository is written once and runs on both.
import { mkdir } from 'node:fs/promises';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import pg from 'pg';
import { connectionOptions } from './connection-options.js';
import { lockDataDir } from './data-dir-lock.js';
import { type PgliteThread, startPgliteThread } from './pglite-thread.js';
import type { Db, QueryOptions } from './queryable.js';

export type { Db, Queryable, QueryOptions } from './queryable.js';

/** The options of a long read. */
export const LONG_READ: QueryOptions = { long: true };

/** More requests wait for the database than its bound allows: the caller should try again shortly. */
export class DatabaseBusyError extends Error {
  override name = 'DatabaseBusyError';
  constructor(
    readonly queueDepth: number,
    readonly limit: number,
  ) {
    super(`${queueDepth} requests wait for the database, past the bound of ${limit}.`);
  }
}

export type DatabaseOptions =
  | {
      kind: 'pglite';
      /** Unset: in memory. */
      dataDir?: string | undefined;
      /**
       * Run PGlite on the calling thread instead of its own worker thread. Only for comparing the
       * two (the storage suite's reference run): in-thread queries block the event loop.
       */
      inThread?: boolean;
    }
  | ({ kind: 'postgres' } & PostgresOptions);

interface PostgresOptions {
  url: string;
  schema?: string;
  maxConnections?: number;
  /** What `pg_stat_activity` shows for the gateway's sessions (operators and tests find them by it). */
  applicationName?: string;
  /** How long opening a connection may take before the query fails as unreachable. */
  connectTimeoutMs?: number;
  /** Told of a connection lost while idle in the pool (the pool drops it and opens another). */
  onConnectionError?: (error: Error) => void;
}

// int8 columns hold epoch milliseconds, which fit a JS number exactly; PGlite already returns numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export async function openDatabase(options: DatabaseOptions): Promise<Db> {
  if (options.kind === 'postgres') return openPostgres(options);
  const { dataDir, inThread = false } = options;
  if (!dataDir) return openPglite(undefined, inThread);
  await mkdir(dataDir, { recursive: true });
  const unlock = await lockDataDir(dataDir);
  try {
    const db = await openPglite(dataDir, inThread);
    return {
      ...db,
      async close() {
        try {
          await db.close();
        } finally {
          await unlock();
        }
      },
    };
  } catch (error) {
    await unlock();
    throw error;
  }
}

/**
 * Where in-memory PGlite databases start from, when set: a `dumpDataDir()` tarball of a database
 * that is already initialised and migrated. A fresh one runs initdb and every migration, about 2 s
 * of CPU; the test suite starts hundreds (see `@blockcatch/gateway/testing`).
 */
let inMemoryTemplate: (() => Promise<Uint8Array<ArrayBuffer>>) | undefined;

/** Makes later in-memory PGlite databases start from `template()`, or from scratch when undefined. */
export function startInMemoryDatabasesFrom(
  template: (() => Promise<Uint8Array<ArrayBuffer>>) | undefined,
): void {
  inMemoryTemplate = template;
}

// The embedded database: PGlite in a worker thread (or, for comparison, on this thread).
async function openPglite(dataDir: string | undefined, inThread: boolean): Promise<Db> {
  const template = !dataDir && inMemoryTemplate ? await inMemoryTemplate() : undefined;
  if (!inThread) return threadDb(await startPgliteThread(dataDir, template));
  const lite = await pgliteInThread(dataDir, template);
  return {
    kind: 'pglite',
    query: <T>(sql: string, params?: unknown[]) => lite.query<T>(sql, params),
    transaction: (fn) => lite.transaction(fn),
    close: () => lite.close(),
  };
}

/**
 * The database over PGlite in its worker thread: one connection, whose waiting calls it counts.
 * Typed by what it uses: the thread's own type would bring PGlite's WebAssembly types into the
 * package's declarations.
 */
export function threadDb(
  thread: Pick<Db, 'query' | 'transaction' | 'close'> & { unanswered(): number },
): Db {
  return {
    kind: 'pglite',
    query: <T>(sql: string, params?: unknown[], options?: QueryOptions) =>
      thread.query<T>(sql, params, options),
    transaction: (fn) => thread.transaction(fn),
    close: () => thread.close(),
    poolStats: () => {
      const calls = thread.unanswered();
      return { total: 1, idle: calls === 0 ? 1 : 0, waiting: Math.max(0, calls - 1) };
    },
  };
}

async function pgliteInThread(
  dataDir: string | undefined,
  template: Uint8Array<ArrayBuffer> | undefined,
): Promise<Pick<PgliteThread, 'query' | 'transaction' | 'close'>> {
  const lite = template
    ? await PGlite.create({ loadDataDir: new Blob([template]) })
    : await PGlite.create(dataDir);
  const rows = async <T>(on: PGlite | Transaction, sql: string, params?: unknown[]) =>
    (await on.query<T>(sql, params)).rows;
  return {
    query: (sql, params) => rows(lite, sql, params),
    transaction: (fn) =>
      lite.transaction((tx) => fn({ query: (sql, params) => rows(tx, sql, params) })),
    close: () => lite.close(),
  };
}

async function openPostgres(options: PostgresOptions): Promise<Db> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 2000;
  // No JIT: PostgreSQL compiles a query once its estimated cost passes jit_above_cost, and a
  // send's insert with consent and the weekly cap checked crosses it; compiling took 180–250 ms
  // of that 0.9 s statement (EXPLAIN ANALYZE), more than it saved. The gateway's queries are short.
  const connection = connectionOptions(options.url, [
    '-c jit=off',
    ...(options.schema ? [`-c search_path=${quoteIdent(options.schema)}`] : []),
  ]);
  const pool = new pg.Pool({
    connectionString: connection.connectionString,
    options: connection.options,
    max: options.maxConnections ?? 10,
    application_name: options.applicationName ?? 'blockcatch-gateway',
    // A server that stops answering must fail a new connection in seconds, not leave it waiting.
    // Set on the connection rather than the pool, whose own timeout would also cut the wait for a
    // free connection under load (backpressure bounds that wait instead).
    Client: class extends pg.Client {
      constructor(config?: pg.ClientConfig) {
        super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
      }
    },
    keepAlive: true,
  });
  // An idle client whose server went away (a failover, a restart, pg_terminate_backend) emits
  // 'error' on the pool, which ends the process when nothing listens. The pool has already dropped
  // it; the next query opens a new connection.
  pool.on('error', (error) => options.onConnectionError?.(error));
  if (options.schema) {
    await pool
      .query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(options.schema)}`)
      .catch((error: { code?: string }) => {
        // Two processes starting together race inside IF NOT EXISTS; the loser finds it created.
        if (error.code !== '23505' && error.code !== '42P06') throw error;
      });
  }
  const run = async <T>(client: pg.Pool | pg.PoolClient, sql: string, params?: unknown[]) =>
    (await client.query(sql, params)).rows as T[];
  return {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    async transaction(fn) {
      const client = await pool.connect();
      // A checked-out client emits 'error' too when its connection is lost, with no pool listener
      // on it meanwhile: the query under way fails with the error, and this keeps it from being
      // fatal. Releasing with the error makes the pool drop the broken connection.
      let lost: Error | undefined;
      const onError = (error: Error) => {
        lost ??= error;
      };
      client.on('error', onError);
      // A transaction's statements run one after another, in the order asked. Callers may ask
      // several at once (on PGlite that saves round trips to its thread); pg's own queue for a
      // client already running a query is deprecated, so they wait their turn here.
      let turn: Promise<unknown> = Promise.resolve();
      const inOrder = <T>(sql: string, params?: unknown[]) => {
        const rows = turn.then(() => run<T>(client, sql, params));
        turn = rows.catch(() => {});
        return rows;
      };
      try {
        await inOrder('BEGIN');
        const result = await fn({ query: inOrder });
        await inOrder('COMMIT');
        return result;
      } catch (error) {
        // After any statement still under way, which fails in the aborted transaction.
        if (!lost) await inOrder('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.removeListener('error', onError);
        client.release(lost);
      }
    },
    close: () => pool.end(),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
  };
}

export function quoteIdent(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) {
    throw new RangeError(`Invalid schema name "${name}": use letters, digits and underscores.`);
  }
  return `"${name}"`;
}
