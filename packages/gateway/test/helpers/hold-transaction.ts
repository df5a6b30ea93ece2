// Holds a database's connection in one open transaction, so every other query waits behind it
// (PGlite runs one at a time): for tests of what happens while the database is busy or goes away.
import type { Db, Queryable } from '../../src/storage/queryable.js';

/**
 * Opens a transaction on `db`, runs `work` in it, and keeps it open. Resolves once it is inside, to
 * the function that lets it go: that resolves as the transaction ends, to nothing, or to the error
 * it failed with (its thread was ended under it, say).
 */
export async function holdTransaction(
  db: Pick<Db, 'transaction'>,
  work: (tx: Queryable) => Promise<unknown> = async () => {},
): Promise<() => Promise<Error | undefined>> {
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => {
    entered = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held = db
    .transaction(async (tx) => {
      await work(tx);
      entered();
      await released;
    })
    .then(
      () => undefined,
      (error: Error) => error,
    );
  // A transaction that failed before it got inside ends the wait too.
  await Promise.race([inside, held]);
  return () => {
    release();
    return held;
  };
}
