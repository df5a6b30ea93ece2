// Statements asked at once inside a transaction, as the send worker asks the ones that need none
// of each other's answers: on both databases they run in the order asked, a failure among them
// rolls all of them back, and on PostgreSQL they never reach pg's deprecated queue for a client
// already running a query (pg warns once per process, and its next major version removes it).
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from './helpers/database.js';

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

describe.each(DATABASE_KINDS)('statements asked at once in a transaction (%s)', (kind) => {
  it('run in the order asked, without a warning from the driver', async () => {
    database = await openTestDatabase(kind);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const seen = await database.db.transaction(async (tx) => {
        const asked = [];
        for (const value of ['a', 'b', 'c']) {
          asked.push(tx.query("SELECT set_config('blockcatch.order', $1, true)", [value]));
          asked.push(tx.query<{ v: string }>("SELECT current_setting('blockcatch.order') AS v"));
        }
        const answers = await Promise.all(asked);
        return answers.filter((_, i) => i % 2 === 1).map((rows) => (rows[0] as { v: string }).v);
      });
      expect(seen).toEqual(['a', 'b', 'c']);
      // Warnings are emitted on the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.includes('already executing a query'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('roll back together when one of them fails, and leave the database usable', async () => {
    database = await openTestDatabase(kind);
    const { db } = database;
    await db.query('CREATE TABLE asked_at_once (n int PRIMARY KEY)');
    const failure = db.transaction(async (tx) => {
      await Promise.all([
        tx.query('INSERT INTO asked_at_once VALUES (1)'),
        tx.query('INSERT INTO asked_at_once VALUES (1)'),
        tx.query('INSERT INTO asked_at_once VALUES (2)'),
      ]);
    });
    await expect(failure).rejects.toMatchObject({ code: '23505' });
    expect(await db.query('SELECT n FROM asked_at_once')).toEqual([]);
    await db.transaction(async (tx) => {
      await Promise.all([
        tx.query('INSERT INTO asked_at_once VALUES (3)'),
        tx.query('INSERT INTO asked_at_once VALUES (4)'),
      ]);
    });
    expect(await db.query('SELECT n FROM asked_at_once ORDER BY n')).toEqual([{ n: 3 }, { n: 4 }]);
  });
});
