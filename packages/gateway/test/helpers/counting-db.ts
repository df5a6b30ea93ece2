// A database that counts the reads and the transactions made through it: how a caller asked, for
// the send worker's idle test and bench.
import type { Db } from '../../src/storage/db.js';

export function countingDb(db: Db): {
  db: Db;
  counts: { reads: number; transactions: number };
} {
  const counts = { reads: 0, transactions: 0 };
  const wrapped: Db = {
    kind: db.kind,
    close: () => db.close(),
    query: (sql, params, options) => {
      counts.reads++;
      return db.query(sql, params, options);
    },
    transaction: (fn) => {
      counts.transactions++;
      return db.transaction(fn);
    },
  };
  return { db: wrapped, counts };
}
