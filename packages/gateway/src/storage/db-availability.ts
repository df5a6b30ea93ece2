// Whether the database can be reached now. Every query's outcome tells: a lost or refused
// connection marks it unreachable, and until a probe gets through, callers are refused at once
// (503 `unavailable`) instead of each waiting for a connection that is not coming. The probe runs
// every `probeMs` while it is down, so serving resumes within that of the database coming back.
import type { Db } from './queryable.js';

/** The database cannot be reached (refused, lost, shutting down, its thread restarting). */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

// PostgreSQL's codes for a server that is going away or not accepting yet: admin_shutdown,
// crash_shutdown, cannot_connect_now, and too_many_connections (a pool elsewhere took them all).
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
// Node's codes for a socket that could not be opened or was lost on the way.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// node-postgres says so only in words: a socket that closed under a query, a connect that timed
// out, a client already broken by one of those.
const LOST_CONNECTION = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^timeout expired/,
  /^Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
];

/** A failure of the connection rather than of the statement: trying again later may work. */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    // Class 08: connection exceptions.
    if (UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    if (NETWORK_CODES.has(code)) return true;
  }
  return LOST_CONNECTION.some((pattern) => pattern.test(error.message));
}

export type DatabaseState = 'reachable' | 'unreachable';

export interface DatabaseAvailability {
  state(): DatabaseState;
  /**
   * Asks the database now (one `SELECT 1`) unless a query succeeded within `freshMs`; answers
   * whether it is reachable, within `timeoutMs` whatever the database does.
   */
  check(options?: { freshMs?: number; timeoutMs?: number }): Promise<boolean>;
  /** Stops the probe. */
  close(): void;
}

export interface AvailabilityLog {
  warn(object: object, message: string): void;
  info(message: string): void;
}

/**
 * Wraps `db` so that every call's outcome updates the availability, and calls made while it is
 * unreachable fail at once with DatabaseUnavailableError (only the probe goes through).
 */
export function watchAvailability(
  db: Db,
  options: { probeMs?: number; log?: AvailabilityLog; now?: () => number } = {},
): { db: Db; availability: DatabaseAvailability } {
  const probeMs = options.probeMs ?? 500;
  const now = options.now ?? Date.now;
  let state: DatabaseState = 'reachable';
  let lastSuccess = now();
  let probe: NodeJS.Timeout | null = null;
  let closed = false;

  const succeeded = () => {
    lastSuccess = now();
    if (state === 'unreachable') {
      state = 'reachable';
      options.log?.info('the database is reachable again');
    }
    if (probe) clearTimeout(probe);
    probe = null;
  };
  const failed = (error: unknown) => {
    // A statement's own error (a constraint, a syntax error) still proves the server answered.
    if (!isDatabaseUnreachable(error)) {
      succeeded();
      return;
    }
    if (state === 'reachable') {
      state = 'unreachable';
      options.log?.warn(
        { err: { type: error instanceof Error ? error.name : 'Error', code: codeOf(error) } },
        'the database cannot be reached; refusing requests that need it until it answers again',
      );
    }
    scheduleProbe();
  };
  const scheduleProbe = () => {
    if (probe || closed) return;
    probe = setTimeout(() => {
      probe = null;
      db.query('SELECT 1').then(succeeded, (error: unknown) => {
        if (isDatabaseUnreachable(error)) scheduleProbe();
        else succeeded();
      });
    }, probeMs);
    // The probe never holds the process open on its own.
    probe.unref();
  };

  const watched = async <T>(run: () => Promise<T>): Promise<T> => {
    if (state === 'unreachable') {
      throw new DatabaseUnavailableError('The database cannot be reached; try again shortly.');
    }
    try {
      const result = await run();
      succeeded();
      return result;
    } catch (error) {
      failed(error);
      throw error;
    }
  };

  return {
    db: {
      kind: db.kind,
      query: (sql, params, options) => watched(() => db.query(sql, params, options)),
      transaction: (fn) => watched(() => db.transaction(fn)),
      close: () => db.close(),
      ...(db.poolStats ? { poolStats: () => db.poolStats!() } : {}),
    },
    availability: {
      state: () => state,
      async check({ freshMs = 1000, timeoutMs = 2000 } = {}) {
        if (state === 'unreachable') return false;
        if (now() - lastSuccess < freshMs) return true;
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), timeoutMs);
        });
        const asked = watched(() => db.query('SELECT 1')).then(
          () => true,
          () => state === 'reachable',
        );
        try {
          return await Promise.race([asked, timeout]);
        } finally {
          clearTimeout(timer);
        }
      },
      close() {
        closed = true;
        if (probe) clearTimeout(probe);
        probe = null;
      },
    },
  };
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
