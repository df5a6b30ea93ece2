// Backpressure counts requests, not queries: a request that runs several reads at once waits for
// the database as one. Each request runs in its own async scope; the wrapper
// below counts the requests that have a database call under way, or were just admitted and have not
// made their first call yet. Background jobs (the send worker, sweeps) are not counted: each makes
// one call at a time. See docs/operations.md (`BLOCKCATCH_DB_QUEUE_LIMIT`).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../storage/db.js';

interface Caller {
  /** Database calls sent and not yet answered. */
  calls: number;
  /** Admitted past the bound and not yet answered: counts until its first call or its end. */
  admitted: boolean;
  /** Counted among the active callers now. */
  active: boolean;
}

export interface CallerCountingDb extends Db {
  /** Requests waiting for or using the database now: what the gateway sheds load on. */
  queueDepth(): number;
  /**
   * Runs `fn` (the rest of a request) as one caller, counted from now until `end()` or its first
   * call, then while any of its calls is under way.
   */
  admit(fn: () => void): { end(): void };
}

/** Wraps `db` so that `queueDepth()` counts the requests waiting for or using it, not queries. */
export function countCallers(db: Db): CallerCountingDb {
  const scope = new AsyncLocalStorage<Caller>();
  let activeCallers = 0;
  const settle = (caller: Caller) => {
    const active = caller.admitted || caller.calls > 0;
    if (active !== caller.active) activeCallers += active ? 1 : -1;
    caller.active = active;
  };
  const counted = async <T>(run: () => Promise<T>): Promise<T> => {
    const caller = scope.getStore();
    if (!caller) return run();
    caller.calls++;
    caller.admitted = false;
    settle(caller);
    try {
      return await run();
    } finally {
      caller.calls--;
      settle(caller);
    }
  };
  return {
    kind: db.kind,
    query: (sql, params, options) => counted(() => db.query(sql, params, options)),
    transaction: (fn) => counted(() => db.transaction(fn)),
    close: () => db.close(),
    ...(db.poolStats ? { poolStats: () => db.poolStats!() } : {}),
    queueDepth: () => activeCallers,
    admit(fn) {
      const caller: Caller = { calls: 0, admitted: true, active: false };
      settle(caller);
      scope.run(caller, fn);
      return {
        end() {
          caller.admitted = false;
          settle(caller);
        },
      };
    },
  };
}
