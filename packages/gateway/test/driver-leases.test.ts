// The catcher's lease rounds, on both databases: two holders split the catchable drivers without
// ever sharing one, and a holder that has its share opens no transaction (on PGlite a transaction
// keeps the one connection for every round trip in it, and a round runs every few seconds).
import { afterEach, describe, expect, it } from 'vitest';
import { runLeaseRound } from '../src/storage/driver-leases.js';
import { saveDriverFilters } from '../src/storage/driver-settings.js';
import { insertUsers } from '../src/storage/users.js';
import { openFilters } from './driver-harness.js';
import { countingDb } from './helpers/counting-db.js';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from './helpers/database.js';

const DRIVERS = 6;
const LEASE_MS = 30_000;

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

async function catchableDrivers(db: TestDatabase['db']): Promise<void> {
  for (let i = 0; i < DRIVERS; i++) {
    const id = `lease-${i}`;
    await insertUsers(db, [
      {
        id,
        product: 'flex',
        phone_number: `+1512555${String(3000 + i)}`,
        name: `Driver ${i}`,
        good_standing: true,
        proxy_installed: true,
        setup_complete: true,
        status: 'start',
      },
    ]);
    await db.query(
      `INSERT INTO driver_platform_links (user_id, state, credentials_enc, session_enc, updated_ts)
       VALUES ($1, 'connected', 'sealed', 'sealed', $2)`,
      [id, Date.now()],
    );
    await saveDriverFilters(db, id, openFilters({ warehouses: ['DFW6'] }));
  }
}

describe.each(DATABASE_KINDS)('lease rounds (%s)', (kind) => {
  it('split the drivers between two holders, and a holder with its share opens no transaction', async () => {
    database = await openTestDatabase(kind);
    await catchableDrivers(database.db);
    const { db, counts } = countingDb(database.db);
    const now = Date.now();
    const round = (holder: string, at: number) =>
      runLeaseRound(db, { holder, now: at, leaseMs: LEASE_MS });

    // Alone, the first holder claims every driver, in one transaction.
    expect(await round('first', now)).toHaveLength(DRIVERS);
    expect(counts.transactions).toBe(1);

    // Holding its share, it renews without a transaction.
    counts.transactions = 0;
    expect(await round('first', now + 1000)).toHaveLength(DRIVERS);
    expect(await round('first', now + 2000)).toHaveLength(DRIVERS);
    expect(counts.transactions).toBe(0);

    // A second holder finds nothing free yet; the first gives back what is over its half, and
    // the second claims it.
    expect(await round('second', now + 3000)).toEqual([]);
    const kept = await round('first', now + 4000);
    expect(kept).toHaveLength(DRIVERS / 2);
    const claimed = await round('second', now + 5000);
    expect(claimed).toHaveLength(DRIVERS / 2);
    expect(new Set([...kept, ...claimed]).size).toBe(DRIVERS);

    // Both have their share now: rounds renew without a transaction, and nothing moves.
    counts.transactions = 0;
    for (let i = 0; i < 3; i++) {
      expect((await round('first', now + 6000 + i * 1000)).sort()).toEqual(kept.sort());
      expect((await round('second', now + 6500 + i * 1000)).sort()).toEqual(claimed.sort());
    }
    expect(counts.transactions).toBe(0);
    const leases = await database.db.query<{ holder: string; n: number }>(
      'SELECT holder, count(*)::int AS n FROM driver_leases GROUP BY holder ORDER BY holder',
    );
    expect(leases).toEqual([
      { holder: 'first', n: DRIVERS / 2 },
      { holder: 'second', n: DRIVERS / 2 },
    ]);
  });

  it('never gives one driver to two holders whose rounds run at once', async () => {
    database = await openTestDatabase(kind);
    await catchableDrivers(database.db);
    const now = Date.now();
    // Both heartbeat first, so each counts the other and claims half.
    await Promise.all(
      ['a', 'b'].map((holder) =>
        database!.db.query('INSERT INTO catcher_holders (holder, expires_ts) VALUES ($1, $2)', [
          holder,
          now + LEASE_MS,
        ]),
      ),
    );
    const [a, b] = await Promise.all(
      ['a', 'b'].map((holder) => runLeaseRound(database!.db, { holder, now, leaseMs: LEASE_MS })),
    );
    expect(a!.filter((id) => b!.includes(id))).toEqual([]);
    expect(a!.length + b!.length).toBeLessThanOrEqual(DRIVERS);
    expect(a!.length).toBeLessThanOrEqual(DRIVERS / 2);
    expect(b!.length).toBeLessThanOrEqual(DRIVERS / 2);
  });
});
