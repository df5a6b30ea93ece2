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
  offersResponseSchema,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../client.js';

const BASE = '/api/flex/v1';

export function driverOffersResource(http: Requester) {
  return {
    async dashboard(options?: RequestOptions): Promise<DriverDashboard> {
      const response = await http.request({
        method: 'GET',
        path: `${BASE}/dashboard`,
        schema: driverDashboardResponseSchema,
        options,
      });
      return response.data.Item;
    },
    /** Newest first; `before` (a `seenAt`) pages back. */
    async offers(query: OffersQuery, options?: RequestOptions): Promise<OfferItem[]> {
      const response = await http.request({
        method: 'GET',
        path: `${BASE}/offers`,
        query: { kind: query.kind, limit: query.limit, before: query.before },
        schema: offersResponseSchema,
        options,
      });
      return response.data.Items;
    },
    /** How fast the catcher acted over the last day: medians and the latest offers' timelines. */
    async latency(options?: RequestOptions): Promise<LatencySummary> {
      const response = await http.request({
        method: 'GET',
        path: `${BASE}/latency`,
        schema: latencyResponseSchema,
        options,
      });
      return response.data.Item;
    },
    /** Won blocks from `from` (default today) to `to` (default 31 days on). */
    async calendar(query: CalendarQuery = {}, options?: RequestOptions): Promise<DriverCalendar> {
      const response = await http.request({
        method: 'GET',
        path: `${BASE}/calendar`,
        query: { from: query.from, to: query.to },
        schema: driverCalendarSchema,
        options,
      });
      return response.data;
    },
  };
}
