// What the catcher did for the signed-in driver: the dashboard, the offers by kind, the calendar.
import {
  type CalendarQuery,
  type DriverCalendar,
  type DriverDashboard,
  driverCalendarSchema,
  driverDashboardResponseSchema,
  type LatencySummary,
  latencyResponseSchema,
  type OfferItem,
  type OffersQuery,
  type Outcomes,
  offersResponseSchema,
  outcomesResponseSchema,
  type StationInsight,
  stationInsightResponseSchema,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

const BASE = '/api/flex/v1';

export function driverOffersResource(http: Requester) {
  return {
    async dashboard(options?: RequestOptions): Promise<DriverDashboard> {
      return (await http.get(`${BASE}/dashboard`, driverDashboardResponseSchema, options)).Item;
    },
    /** Newest first; `before` (a `seenAt`) pages back. */
    async offers(query: OffersQuery, options?: RequestOptions): Promise<OfferItem[]> {
      return (
        await http.get(`${BASE}/offers`, offersResponseSchema, {
          ...options,
          query: { kind: query.kind, limit: query.limit, before: query.before },
        })
      ).Items;
    },
    /** How fast the catcher acted over the last day: medians and the latest offers' timelines. */
    async latency(options?: RequestOptions): Promise<LatencySummary> {
      return (await http.get(`${BASE}/latency`, latencyResponseSchema, options)).Item;
    },
    /** Over the last day and week: offers seen, wanted, won, lost, refused by rule, reaction. */
    async outcomes(options?: RequestOptions): Promise<Outcomes> {
      return (await http.get(`${BASE}/outcomes`, outcomesResponseSchema, options)).Item;
    },
    /** Every driver's offers of the last 4 weeks by station and hour of the week (5+ drivers each). */
    async stationInsight(options?: RequestOptions): Promise<StationInsight> {
      return http.get(`${BASE}/station-insight`, stationInsightResponseSchema, options);
    },
    /** Won blocks from `from` (default today) to `to` (default 31 days on). */
    async calendar(query: CalendarQuery = {}, options?: RequestOptions): Promise<DriverCalendar> {
      return http.get(`${BASE}/calendar`, driverCalendarSchema, {
        ...options,
        query: { from: query.from, to: query.to },
      });
    },
  };
}
