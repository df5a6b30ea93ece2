// One driver seen by an admin: the dashboard and calendar of the Flex user with that phone.
import {
  type CalendarQuery,
  type DriverCalendar,
  type DriverDashboard,
  driverCalendarSchema,
  driverDashboardResponseSchema,
  type LatencySummary,
  latencyResponseSchema,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../client.js';

const userPath = (phone: string) => `/api/flex/v1/admin/users/${encodeURIComponent(phone)}`;

export function adminDriversResource(http: Requester) {
  return {
    async userDashboard(phone: string, options?: RequestOptions): Promise<DriverDashboard> {
      const response = await http.request({
        method: 'GET',
        path: `${userPath(phone)}/dashboard`,
        schema: driverDashboardResponseSchema,
        options,
      });
      return response.data.Item;
    },
    /** The driver's catcher latency over the last day. */
    async userLatency(phone: string, options?: RequestOptions): Promise<LatencySummary> {
      const response = await http.request({
        method: 'GET',
        path: `${userPath(phone)}/latency`,
        schema: latencyResponseSchema,
        options,
      });
      return response.data.Item;
    },
    async userCalendar(
      phone: string,
      query: CalendarQuery = {},
      options?: RequestOptions,
    ): Promise<DriverCalendar> {
      const response = await http.request({
        method: 'GET',
        path: `${userPath(phone)}/calendar`,
        query: { from: query.from, to: query.to },
        schema: driverCalendarSchema,
        options,
      });
      return response.data;
    },
  };
}
