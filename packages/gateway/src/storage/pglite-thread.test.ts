// The embedded database in its worker thread, against PGlite on the test's own thread as the
// reference: the same rows and the same PostgreSQL errors, transactions that hold the database, and
// an event loop that keeps turning while a long query runs.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from './data-dir-lock.js';
import { type Db, LONG_READ, openDatabase } from './db.js';

let worker: Db;
let reference: Db;

beforeAll(async () => {
  [worker, reference] = await Promise.all([
    openDatabase({ kind: 'pglite' }),
    openDatabase({ kind: 'pglite', inThread: true }),
  ]);
});

afterAll(async () => {
  await Promise.all([worker?.close(), reference?.close()]);
});

/** Runs each statement, keeping its rows or its error's message and fields. */
async function outcomes(db: Db, statements: [string, unknown[]?][]) {
  const results: unknown[] = [];
  for (const [sql, params] of statements) {
    results.push(
      await db.query(sql, params).then(
        (rows) => ({ rows }),
        (error: Error) => {
          // The worker leaves out the failed query and its parameters (the caller has them).
          const {
            query: _query,
            params: _params,
            queryOptions: _options,
            ...fields
          } = {
            ...error,
          } as Record<string, unknown>;
          return { message: error.message, fields };
        },
      ),
    );
  }
  return results;
}

describe('PGlite in its worker thread', () => {
  it('answers rows and errors exactly as PGlite on this thread does', async () => {
    const statements: [string, unknown[]?][] = [
      [
        `CREATE TABLE kinds (id int PRIMARY KEY, at timestamptz, doc jsonb, raw bytea, big int8,
           flag boolean, note text, CHECK (big >= 0))`,
      ],
      [
        'INSERT INTO kinds VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [
          1,
          new Date(1_700_000_000_000),
          { a: [1, 'x', null] },
          new Uint8Array([0, 255]),
          2 ** 40,
          true,
          null,
        ],
      ],
      ['SELECT * FROM kinds'],
      ['INSERT INTO kinds (id) VALUES (1)'],
      ['INSERT INTO kinds (id, big) VALUES (2, -1)'],
      ['SELEC 1'],
      ['SELECT 1 / 0'],
    ];
    const [ours, theirs] = [
      await outcomes(worker, statements),
      await outcomes(reference, statements),
    ];
    expect(ours).toEqual(theirs);
    // The codes callers branch on survive the trip between threads.
    expect(
      ours.slice(3).map((outcome) => (outcome as { fields: { code: string } }).fields.code),
    ).toEqual(['23505', '23514', '42601', '22012']);
    expect(ours[3]).toMatchObject({ fields: { constraint: 'kinds_pkey', table: 'kinds' } });
  });

  it('holds the database for a transaction: others wait, then see its writes once committed', async () => {
    await worker.query('CREATE TABLE held (n int)');
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const transaction = worker.transaction(async (tx) => {
      await tx.query('INSERT INTO held VALUES (1)');
      entered();
      await released;
      await tx.query('INSERT INTO held VALUES (2)');
      return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM held'))[0]!.n;
    });
    await inside;
    const outside = worker.query<{ n: number }>('SELECT count(*)::int AS n FROM held');
    release();
    expect(await transaction).toBe(2);
    expect(await outside).toEqual([{ n: 2 }]);
  });

  it("runs a transaction's first query while this thread is busy, not after it reads the begin's answer", async () => {
    let ranAt = 0;
    const transaction = worker.transaction(async (tx) => {
      const [row] = await tx.query<{ at: number }>(
        'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS at',
      );
      ranAt = row!.at;
    });
    // This thread stays busy, as under load, and reads no answer meanwhile. Had the query waited
    // for the begin's answer, it could only have been sent, and run, after this.
    const busyUntil = Date.now() + 1500;
    while (Date.now() < busyUntil) {
      // busy
    }
    await transaction;
    expect(ranAt).toBeGreaterThan(0);
    expect(ranAt).toBeLessThan(busyUntil);
  });

  it('commits a transaction that made no query, and rolls back one that threw before any', async () => {
    await expect(worker.transaction(async () => 'nothing asked')).resolves.toBe('nothing asked');
    await expect(
      worker.transaction(async () => {
        throw new Error('changed its mind');
      }),
    ).rejects.toThrow('changed its mind');
    // The database is free again for the next caller.
    expect(await worker.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('rolls a transaction back when its function throws, with the error it threw', async () => {
    await worker.query('CREATE TABLE undone (n int UNIQUE)');
    const failure = worker.transaction(async (tx) => {
      await tx.query('INSERT INTO undone VALUES (1)');
      await tx.query('INSERT INTO undone VALUES (1)');
    });
    await expect(failure).rejects.toMatchObject({ code: '23505' });
    expect(await worker.query('SELECT * FROM undone')).toEqual([]);
  });

  it('runs the short queries waiting with long reads first, whichever was asked first', async () => {
    const order: string[] = [];
    let waiting: Promise<unknown>[] = [];
    // The transaction holds the database while the calls line up behind it.
    await worker.transaction(async (tx) => {
      await tx.query('SELECT 1');
      waiting = [
        worker.query('SELECT 1 AS page', [], LONG_READ).then(() => order.push('long read 1')),
        worker.query('SELECT 2 AS page', [], LONG_READ).then(() => order.push('long read 2')),
        worker.query('SELECT 3 AS dashboard').then(() => order.push('short 1')),
        worker.transaction(async (inner) => {
          await inner.query('SELECT 4');
          order.push('transaction');
        }),
        worker.query('SELECT 5 AS dashboard').then(() => order.push('short 2')),
      ];
    });
    await Promise.all(waiting);
    expect(order).toEqual(['short 1', 'transaction', 'short 2', 'long read 1', 'long read 2']);
  });

  it('lets a long read through once short queries have kept the database 200 ms in a row', async () => {
    const order: string[] = [];
    let waiting: Promise<unknown>[] = [];
    await worker.transaction(async (tx) => {
      await tx.query('SELECT 1');
      waiting = [
        worker.query('SELECT 1 AS page', [], LONG_READ).then(() => order.push('long read')),
        // Each short query takes at least 50 ms: after four, the short ones have had 200 ms.
        ...Array.from({ length: 10 }, (_, i) =>
          worker
            .query('SELECT $1::int AS dashboard, pg_sleep(0.05)', [i])
            .then(() => order.push(`short ${i}`)),
        ),
      ];
    });
    await Promise.all(waiting);
    // Short queries first, as they waited; the long read is not starved behind all ten.
    expect(order.indexOf('long read')).toBeGreaterThanOrEqual(1);
    expect(order.indexOf('long read')).toBeLessThanOrEqual(4);
    expect(order.filter((step) => step.startsWith('short'))).toEqual(
      Array.from({ length: 10 }, (_, i) => `short ${i}`),
    );
  });

  it('keeps the event loop turning while a long query runs (PGlite on this thread blocks it)', async () => {
    const order = async (db: Db) => {
      const seen: string[] = [];
      const query = db
        .query('SELECT count(*) FROM generate_series(1, 300000)')
        .then(() => seen.push('query'));
      const timer = new Promise<void>((resolve) =>
        setTimeout(() => resolve(void seen.push('timer')), 0),
      );
      // Both must happen; which came first is the answer.
      await Promise.all([query, timer]);
      return seen;
    };
    expect(await order(worker)).toEqual(['timer', 'query']);
    expect(await order(reference)).toEqual(['query', 'timer']);
  });
});

describe('the data folder lock', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bc-lock-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('lets one holder in at a time, and takes over the lock of a process that is gone', async () => {
    const data = join(dir, 'data');
    const release = await lockDataDir(data);
    await expect(lockDataDir(data)).rejects.toThrow(DataDirInUseError);
    await expect(lockDataDir(data)).rejects.toThrow(`in use by process ${process.pid}`);
    await release();
    await (await lockDataDir(data))();

    // A crashed gateway's lock: its process id no longer runs (pid_max on Linux is below 2^22+1).
    await writeFile(`${data}.lock`, `${2 ** 22 + 1}\n`);
    const again = await lockDataDir(data);
    await again();
  });
});
