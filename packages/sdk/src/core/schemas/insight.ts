// What every driver's recorded offers say about each station, aggregated so no driver can be
// singled out: `GET /api/flex/v1/station-insight`.
import { z } from 'zod';

/** The fewest distinct drivers behind any figure shown. */
export const INSIGHT_MIN_DRIVERS = 5;
/** The weeks looked back over. */
export const INSIGHT_WEEKS = 4;

export const insightFigureSchema = z.object({
  station: z.string(),
  /** Blocks starting in this hour of the week on the station's clock: 0 is Monday 00:00–01:00. */
  hourOfWeek: z.number().int().min(0).max(167),
  /** Distinct drivers who were shown these offers; never under INSIGHT_MIN_DRIVERS. */
  drivers: z.number(),
  offers: z.number(),
  /** The middle half of the offers' pay per hour: the lower and upper quartiles, dollars. */
  payPerHourLow: z.number(),
  payPerHourHigh: z.number(),
  /** Of the offers drivers wanted, the share taken by faster drivers first; null when none wanted. */
  takenFirstShare: z.number().nullable(),
});
export type InsightFigure = z.infer<typeof insightFigureSchema>;

export const stationInsightResponseSchema = z.object({
  from: z.number(),
  to: z.number(),
  minDrivers: z.number(),
  Items: z.array(insightFigureSchema),
});
export type StationInsight = z.infer<typeof stationInsightResponseSchema>;
