// Slicing the review tables into pages: pages run 1 to ceil(total / size).

export { DEFAULT_ROWS_PER_PAGE, ROWS_PER_PAGE } from './schemas/filters.js';

export interface Page<T> {
  items: T[];
  /** The page actually shown, after clamping the one asked for. */
  page: number;
  /** At least 1: an empty list is one empty page, so 'Page 1' still has something to name. */
  pageCount: number;
  total: number;
}

/**
 * The `page`-th slice of `size` rows. A page out of range is clamped into 1..pageCount rather
 * than refused, because filtering can shrink the list under the page the admin was on; a
 * fractional page is rounded down and NaN reads as 1. `size` must be a positive integer.
 */
export function paginate<T>(rows: readonly T[], page: number, size: number): Page<T> {
  if (!Number.isInteger(size) || size <= 0) {
    throw new RangeError(`Page size must be a positive integer, got ${size}`);
  }
  const total = rows.length;
  const pageCount = Math.max(1, Math.ceil(total / size));
  const shown = Number.isNaN(page) ? 1 : Math.min(Math.max(Math.floor(page), 1), pageCount);
  const start = (shown - 1) * size;
  return { items: rows.slice(start, start + size), page: shown, pageCount, total };
}
