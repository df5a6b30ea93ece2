// What the driver's home screen shows: offer counts, whether the system is on and searching, and
// where the paid service stands (expired, or expiring within a day).
import type { DriverDashboard } from '@blockcatch/sdk';
import type { Queryable } from '../storage/db.js';
import { findLiveLease } from '../storage/driver-leases.js';
import { countOfferRecords } from '../storage/driver-offers.js';
import type { UserRecord } from '../storage/users.js';

const DAY_MS = 86_400_000;

export async function readDashboard(
  db: Queryable,
  user: UserRecord,
  now = Date.now(),
): Promise<DriverDashboard> {
  const [offers, lease] = await Promise.all([
    countOfferRecords(db, user.id),
    findLiveLease(db, user.id, now),
  ]);
  const systemOn = user.status === 'start';
  const searching = systemOn && lease !== null;
  const expiration = user.expiration_ts === null ? null : Number(user.expiration_ts);
  return {
    status: user.status,
    systemOn,
    searching,
    notSearchingBecause:
      !systemOn || searching
        ? null
        : !user.proxy_installed
          ? 'not-connected'
          : !user.setup_complete
            ? 'setup-incomplete'
            : !user.good_standing
              ? 'not-in-good-standing'
              : 'starting',
    offers,
    proxyInstalled: user.proxy_installed,
    setupComplete: user.setup_complete,
    goodStanding: user.good_standing,
    expirationDateTimestamp: expiration,
    expired: expiration !== null && expiration <= now,
    expiringSoon: expiration !== null && expiration > now && expiration - now <= DAY_MS,
  };
}
