// The Users screen's filters: standing, account connected, filters complete, region and service
// ending within a number of days. Pure: the screen passes the clock.
import type { TriState, UserRow } from '@blockcatch/sdk';

export interface UserListFilters {
  goodStanding: TriState;
  proxyInstalled: TriState;
  setupComplete: TriState;
  /** A Flex region, or '' for every region. */
  region: string;
  /** Whole days as typed; '' for no limit. */
  expiringWithinDays: string;
}

export const NO_USER_FILTERS: UserListFilters = {
  goodStanding: 'all',
  proxyInstalled: 'all',
  setupComplete: 'all',
  region: '',
  expiringWithinDays: '',
};

/** The most days the expiring filter takes: a year. */
const MAX_EXPIRING_DAYS = 366;
const DAY_MS = 86_400_000;

/** The days typed, or null when the field is empty or not a whole number from 0 to a year. */
export function expiringDays(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.length > 3 || !/^\d+$/.test(trimmed)) return null;
  const days = Number(trimmed);
  return days <= MAX_EXPIRING_DAYS ? days : null;
}

const keeps = (filter: TriState, value: boolean) =>
  filter === 'all' || (filter === 'yes') === value;

const regionOf = (row: UserRow) => ('humanRegion' in row ? row.humanRegion : null);

/**
 * The rows every filter keeps. "Expiring within N days": paid service that has not ended and ends
 * before now + N days (0: today's remaining hours are not a day, so none).
 */
export function filterUserRows(
  rows: readonly UserRow[],
  filters: UserListFilters,
  now: number,
): UserRow[] {
  const days = expiringDays(filters.expiringWithinDays);
  return rows.filter((row) => {
    if (!keeps(filters.goodStanding, row.goodStanding)) return false;
    if (!keeps(filters.proxyInstalled, row.proxyInstalled)) return false;
    if (!keeps(filters.setupComplete, row.setupComplete)) return false;
    if (filters.region !== '' && regionOf(row) !== filters.region) return false;
    if (days !== null) {
      const ends = row.expirationDateTimestamp;
      if (ends === null || ends <= now || ends > now + days * DAY_MS) return false;
    }
    return true;
  });
}

/** The regions the rows hold, sorted, for the region select. */
export function regionsOf(rows: readonly UserRow[]): string[] {
  const found = new Set<string>();
  for (const row of rows) {
    const region = regionOf(row);
    if (region) found.add(region);
  }
  return [...found].sort((a, b) => a.localeCompare(b));
}
