// What a driver's home screen reads, in one statement. It is the request drivers make most, and on
// the embedded database every statement waits its turn on one connection: the four reads it was
// (offer counts, the live lease, the platform link, the filters) cost twice this one on PGlite
// (about 2.0 against 1.0 ms each, in a loop in one process), and on PostgreSQL they took four pool
// connections at once (docs/operations.md, "Mixed load").
import type { SavedDriverFilters } from '@blockcatch/sdk';
import type { Queryable } from './db.js';
import type { DriverLinkRow } from './driver-links.js';
import type { OfferKind } from './driver-offers.js';
import { readStoredFilters } from './driver-settings.js';

export interface DashboardRecords {
  offers: Record<OfferKind, number>;
  /** Whether a catcher process holds a live lease on the driver at `now`. */
  leased: boolean;
  /** The link's state only: its credentials and session stay in the database. */
  link: Pick<DriverLinkRow, 'state' | 'throttled_until_ts' | 'verification_required_ts'> | null;
  filters: SavedDriverFilters | null;
}

export async function readDashboardRecords(
  db: Queryable,
  userId: string,
  now: number,
): Promise<DashboardRecords> {
  const [row] = await db.query<{
    offers: Partial<Record<OfferKind, number>> | null;
    leased: boolean;
    link: DashboardRecords['link'];
    filters: unknown;
  }>(
    `SELECT
       (SELECT json_object_agg(kind, n) FROM (
          SELECT kind, count(*)::int AS n FROM driver_offers WHERE user_id = $1 GROUP BY kind
        ) k) AS offers,
       EXISTS (SELECT 1 FROM driver_leases WHERE user_id = $1 AND expires_ts >= $2) AS leased,
       (SELECT json_build_object('state', state, 'throttled_until_ts', throttled_until_ts,
                                 'verification_required_ts', verification_required_ts)
          FROM driver_platform_links WHERE user_id = $1) AS link,
       (SELECT filters FROM driver_settings WHERE user_id = $1) AS filters`,
    [userId, now],
  );
  return {
    offers: { won: 0, disliked: 0, gone: 0, ...row?.offers },
    leased: row?.leased === true,
    link: row?.link ?? null,
    filters: row?.filters == null ? null : readStoredFilters(row.filters),
  };
}
