// The driver's home screen reads its records in one statement, on both databases: offer counts by
// kind, a lease only while live, the link's state without its credentials, and the filters.
import { describe, expect, it } from 'vitest';
import { readDashboardRecords } from '../src/storage/driver-dashboard.js';
import { saveDriverFilters } from '../src/storage/driver-settings.js';
import { insertUsers } from '../src/storage/users.js';
import { openFilters } from './driver-harness.js';
import { DATABASE_KINDS, openTestDatabase } from './helpers/database.js';

const NOW = 1_790_000_000_000;

describe.each(DATABASE_KINDS)('dashboard records on %s', (kind) => {
  it('reads a new driver as nothing yet, and a driver with records as they are', async () => {
    const { db, drop } = await openTestDatabase(kind);
    try {
      await insertUsers(db, [
        { id: 'd1', product: 'flex', phone_number: '+15550000001', name: 'Dana' },
        { id: 'd2', product: 'flex', phone_number: '+15550000002', name: 'Eli' },
      ]);
      expect(await readDashboardRecords(db, 'd1', NOW)).toEqual({
        offers: { won: 0, disliked: 0, gone: 0 },
        leased: false,
        link: null,
        filters: null,
      });

      const kinds = ['won', 'won', 'gone', 'disliked', 'won'];
      for (const [i, offerKind] of kinds.entries()) {
        await db.query(
          `INSERT INTO driver_offers (user_id, offer_id, kind, service_area_id, start_ts, end_ts,
             pay, seen_ts) VALUES ('d1', $1, $2, 'DAU1', 1, 2, 50, $3)`,
          [`o${i}`, offerKind, NOW - i],
        );
      }
      // Another driver's offers are not counted.
      await db.query(
        `INSERT INTO driver_offers (user_id, offer_id, kind, service_area_id, start_ts, end_ts,
           pay, seen_ts) VALUES ('d2', 'x', 'won', 'DAU1', 1, 2, 50, 1)`,
      );
      await db.query(
        `INSERT INTO driver_platform_links (user_id, state, credentials_enc, session_enc,
           updated_ts, throttled_until_ts) VALUES ('d1', 'connected', 'secret-credentials',
           'secret-session', 1, $1)`,
        [NOW + 60_000],
      );
      await db.query(
        "INSERT INTO driver_leases (user_id, holder, expires_ts) VALUES ('d1', 'process-a', $1)",
        [NOW + 30_000],
      );
      await saveDriverFilters(db, 'd1', openFilters(), NOW);

      const records = await readDashboardRecords(db, 'd1', NOW);
      expect(records.offers).toEqual({ won: 3, disliked: 1, gone: 1 });
      expect(records.leased).toBe(true);
      expect(records.link).toEqual({
        state: 'connected',
        throttled_until_ts: NOW + 60_000,
        verification_required_ts: null,
      });
      expect(JSON.stringify(records)).not.toContain('secret');
      expect(records.filters).toMatchObject({ warehouses: ['DAU1'], minBlockPay: 40 });

      // A lease that ran out is no lease.
      expect((await readDashboardRecords(db, 'd1', NOW + 30_001)).leased).toBe(false);
    } finally {
      await drop();
    }
  });
});
