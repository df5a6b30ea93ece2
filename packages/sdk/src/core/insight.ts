// The sentence the Filters page says beside a station: of the hours of the week its offers came
// in, the busiest one, what it paid per hour, and what the driver's minimum made of it.
import type { InsightFigure } from './schemas/insight.js';

export interface InsightSuggestion {
  station: string;
  /** 0 is Monday, as in the schedule's week. */
  weekday: number;
  hour: number;
  low: number;
  high: number;
  /** What a minimum per hour of `minHourlyPay` takes of that hour's offers, from the quartiles. */
  verdict: 'none' | 'some' | 'most';
  offers: number;
}

/** The busiest hour of `station` with what `minHourlyPay` would make of it; null without figures. */
export function insightSuggestion(
  figures: readonly InsightFigure[],
  station: string,
  minHourlyPay: number,
): InsightSuggestion | null {
  let busiest: InsightFigure | null = null;
  for (const f of figures) {
    if (f.station !== station) continue;
    if (
      busiest === null ||
      f.offers > busiest.offers ||
      (f.offers === busiest.offers && f.hourOfWeek < busiest.hourOfWeek)
    ) {
      busiest = f;
    }
  }
  if (busiest === null) return null;
  return {
    station,
    weekday: Math.floor(busiest.hourOfWeek / 24),
    hour: busiest.hourOfWeek % 24,
    low: busiest.payPerHourLow,
    high: busiest.payPerHourHigh,
    verdict:
      minHourlyPay > busiest.payPerHourHigh
        ? 'none'
        : minHourlyPay > busiest.payPerHourLow
          ? 'some'
          : 'most',
    offers: busiest.offers,
  };
}
