// The weekly summary's suggestion: among a few small relaxations of a driver's minimums, the one
// that would have caught the most extra pay over the last week's offers (`previewFilters`, an
// estimate), and the calendar facts that say when a digest is due. Pure.
import {
  type DriverFilters,
  formatIsoDay,
  PREVIEW_DAYS,
  previewFilters,
  type SeenOffer,
} from '@blockcatch/sdk';

export interface FilterSuggestion {
  change: { field: 'minHourlyPay' | 'minBlockPay'; value: number };
  /** Extra blocks and pay the change would have caught (estimates). */
  count: number;
  pay: number;
}

/** Dollars an hour and dollars a block to try lowering by, smallest first. */
const HOURLY_STEPS = [1, 2, 3, 5];
const BLOCK_STEPS = [5, 10, 20];

/**
 * The relaxation worth the most extra pay (ties: the smaller change), or null when none would
 * have caught anything more.
 */
export function suggestFilterChange(
  offers: readonly SeenOffer[],
  filters: DriverFilters,
  now: number,
): FilterSuggestion | null {
  const candidates: FilterSuggestion['change'][] = [
    ...HOURLY_STEPS.map((step) => ({
      field: 'minHourlyPay' as const,
      value: filters.minHourlyPay - step,
    })),
    ...BLOCK_STEPS.map((step) => ({
      field: 'minBlockPay' as const,
      value: filters.minBlockPay - step,
    })),
  ].filter((c) => c.value >= 0);
  let best: FilterSuggestion | null = null;
  for (const change of candidates) {
    const proposed = { ...filters, [change.field]: change.value };
    const preview = previewFilters(offers, filters, proposed, { now, days: PREVIEW_DAYS });
    if (preview.deltaBlocks <= 0 || preview.deltaPay <= 0) continue;
    if (!best || preview.deltaPay > best.pay) {
      best = { change, count: preview.deltaBlocks, pay: preview.deltaPay };
    }
  }
  return best;
}

/** The ISO week (`2026-W48`) and ISO weekday (1 = Monday) of `ts` on the clock of `timeZone`. */
export function isoWeekOf(ts: number, timeZone: string): { week: string; weekday: number } {
  const day = formatIsoDay(ts, timeZone);
  const date = new Date(`${day}T00:00:00Z`);
  const weekday = date.getUTCDay() || 7;
  // The Thursday of this week decides the ISO year.
  const thursday = new Date(date.getTime() + (4 - weekday) * 86_400_000);
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((thursday.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return { week: `${thursday.getUTCFullYear()}-W${String(week).padStart(2, '0')}`, weekday };
}
