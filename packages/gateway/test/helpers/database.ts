// The two databases the storage suite runs on: PGlite in memory, and the real PostgreSQL on
// 127.0.0.1:5432 in a schema of its own that is dropped afterwards.
import { randomBytes } from 'node:crypto';
import { type Db, openDatabase } from '../../src/storage/db.js';
import { migrate } from '../../src/storage/migrate.js';

export const POSTGRES_URL =
  process.env.BLOCKCATCH_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A schema name no other test run uses. */
export const uniqueSchema = () => `test_${randomBytes(6).toString('hex')}`;

export interface TestDatabase {
  db: Db;
  drop(): Promise<void>;
}

type DatabaseKind = 'pglite' | 'postgres';

/**
 * The databases a storage suite runs on: both, unless BLOCKCATCH_TEST_DATABASES names one (the
 * root vitest config runs the storage suite once per database, in parallel).
 */
export const DATABASE_KINDS: readonly DatabaseKind[] = (() => {
  const named = process.env.BLOCKCATCH_TEST_DATABASES?.split(',').map((kind) => kind.trim());
  if (!named) return ['pglite', 'postgres'];
  const unknown = named.filter((kind) => kind !== 'pglite' && kind !== 'postgres');
  if (unknown.length > 0) {
    throw new Error(`BLOCKCATCH_TEST_DATABASES: ${unknown.join(', ')} is not pglite or postgres`);
  }
  return named as DatabaseKind[];
})();

/**
 * PGlite runs in its worker thread, as the gateway runs it. BLOCKCATCH_TEST_PGLITE=in-thread runs
 * it on the test's own thread instead: the reference the worker's results are compared against.
 */
const PGLITE_IN_THREAD = process.env.BLOCKCATCH_TEST_PGLITE === 'in-thread';

export async function openTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const db = await openDatabase({ kind: 'pglite', inThread: PGLITE_IN_THREAD });
    await migrate(db);
    return { db, drop: () => db.close() };
  }
  const schema = uniqueSchema();
  const db = await openDatabase({ kind: 'postgres', url: POSTGRES_URL, schema, maxConnections: 4 });
  await migrate(db);
  return {
    db,
    async drop() {
      await db.query(`DROP SCHEMA "${schema}" CASCADE`);
      await db.close();
    },
  };
}
