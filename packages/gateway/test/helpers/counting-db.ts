// A database that counts how a caller asked: the reads and the transactions made through it, and
// each transaction's round trips, for the send worker's idle and batch tests, the idle bench and
// the principal cache's no-query read.
import type { Db, Queryable } from '../../src/storage/db.js';

export function countingDb(db: Db): {
  db: Db;
  /**
   * `roundTrips` has one entry a transaction: how many times it asked a query while none of its
   * queries was in flight. Statements asked together count once; on PGlite each round trip is a
   * turn of the HTTP thread during which the transaction holds the one connection.
   */
  /** `readSql`: each read's SQL, in order, so a failure can name the query it did not expect. */
  counts: { reads: number; readSql: string[]; transactions: number; roundTrips: number[] };
} {
  const counts = { reads: 0, readSql: [] as string[], transactions: 0, roundTrips: [] as number[] };
  const wrapped: Db = {
    kind: db.kind,
    close: () => db.close(),
    query: (sql, params, options) => {
      counts.reads++;
      counts.readSql.push(sql);
      return db.query(sql, params, options);
    },
    transaction: (fn) => {
      counts.transactions++;
      return db.transaction(async (tx) => {
        let trips = 0;
        let inFlight = 0;
        const counted: Queryable = {
          query: async (sql, params, options) => {
            if (inFlight === 0) trips++;
            inFlight++;
            try {
              return await tx.query(sql, params, options);
            } finally {
              inFlight--;
            }
          },
        };
        try {
          return await fn(counted);
        } finally {
          counts.roundTrips.push(trips);
        }
      });
    },
  };
  return { db: wrapped, counts };
}
