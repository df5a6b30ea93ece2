// The users table's sorting (selectedSorting + sortingDirection): which column, which way.
import type { UserRow } from '@blockcatch/sdk';

export const SORTABLE_COLUMNS = [
  'name',
  'phoneNumber',
  'referral',
  'region',
  'goodStanding',
  'proxyInstalled',
  'setupComplete',
  'expirationDateTimestamp',
  'status',
] as const;
export type SortColumn = (typeof SORTABLE_COLUMNS)[number];
export type SortDirection = 'asc' | 'desc';

/** The region a row shows: Flex rows have `humanRegion`, Spark rows a delivery area. */
export function regionOf(row: UserRow): string | null {
  if ('humanRegion' in row) return row.humanRegion;
  return row.driverOptions.deliveryArea;
}

type Key = string | number | null;

function keyOf(row: UserRow, column: SortColumn): Key {
  switch (column) {
    case 'region':
      return regionOf(row);
    case 'goodStanding':
    case 'proxyInstalled':
    case 'setupComplete':
      return row[column] ? 1 : 0;
    default:
      return row[column];
  }
}

/**
 * A sorted copy. Empty values (null) go last whichever the direction, so 'None' rows never push
 * the interesting ones off the first page; ties keep their order (Array#sort is stable).
 */
export function sortUsers<T extends UserRow>(
  rows: readonly T[],
  column: SortColumn | undefined,
  direction: SortDirection,
): T[] {
  if (!column) return rows.slice();
  const sign = direction === 'asc' ? 1 : -1;
  const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
  const keyed = rows.map((row) => ({ row, key: keyOf(row, column) }));
  keyed.sort((a, b) => {
    if (a.key === null || b.key === null) return a.key === b.key ? 0 : a.key === null ? 1 : -1;
    if (typeof a.key === 'number' && typeof b.key === 'number') return sign * (a.key - b.key);
    return sign * collator.compare(String(a.key), String(b.key));
  });
  return keyed.map((k) => k.row);
}

/** The distinct regions of the rows, sorted, for the region filter's options. */
export function regionsOf(rows: readonly UserRow[]): string[] {
  const regions = new Set<string>();
  for (const row of rows) {
    const region = regionOf(row);
    if (region) regions.add(region);
  }
  return [...regions].sort((a, b) => a.localeCompare(b));
}
