// What the driver's home screen shows: offer counts, whether the system is on and searching and,
// when it is not, the first reason why (off, the platform asks for a new code, not connected, no
// filters, not paid, throttled until a time, outside the schedule, starting), and where the paid
// service stands.
import { type DriverDashboard, type NotSearchingReason, scheduleSearch } from '@blockcatch/sdk';
import type { Queryable } from '../storage/db.js';
import { readDashboardRecords } from '../storage/driver-dashboard.js';
import type { UserRecord } from '../storage/user-record.js';

const DAY_MS = 86_400_000;

export async function readDashboard(
  db: Queryable,
  user: UserRecord,
  now = Date.now(),
): Promise<DriverDashboard> {
  const { offers, leased, link, filters } = await readDashboardRecords(db, user.id, now);
  // The catcher holds the lease of a driver outside their schedule but does not poll for them.
  const schedule = filters === null ? null : scheduleSearch(filters, now);
  const systemOn = user.status === 'start';
  const needsCode = link?.state === 'needs-code';
  const needsVerification = !needsCode && link?.verification_required_ts != null;
  const throttledUntil =
    link?.throttled_until_ts != null && Number(link.throttled_until_ts) > now
      ? Number(link.throttled_until_ts)
      : null;
  const reason: NotSearchingReason | null = !systemOn
    ? 'system-off'
    : needsCode
      ? 'needs-code'
      : needsVerification
        ? 'needs-verification'
        : !user.proxy_installed || link?.state !== 'connected'
          ? 'not-connected'
          : !user.setup_complete
            ? 'setup-incomplete'
            : !user.good_standing
              ? 'not-in-good-standing'
              : throttledUntil !== null
                ? 'throttled'
                : schedule !== null && !schedule.searching
                  ? 'outside-schedule'
                  : !leased
                    ? 'starting'
                    : null;
  const expiration = user.expiration_ts === null ? null : Number(user.expiration_ts);
  return {
    status: user.status,
    systemOn,
    searching: reason === null,
    notSearchingBecause: reason,
    throttledUntil: reason === 'throttled' ? throttledUntil : null,
    searchingFrom: reason === 'outside-schedule' ? (schedule?.searchFrom ?? null) : null,
    needsAttention: needsCode ? 'enter-code' : needsVerification ? 'verify' : null,
    offers,
    proxyInstalled: user.proxy_installed,
    setupComplete: user.setup_complete,
    goodStanding: user.good_standing,
    expirationDateTimestamp: expiration,
    expired: expiration !== null && expiration <= now,
    expiringSoon: expiration !== null && expiration > now && expiration - now <= DAY_MS,
  };
}
