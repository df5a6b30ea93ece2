// One Flex user seen by an admin: the dashboard, calendar and outcomes of the driver with that
// phone, and the owner's switch that makes them an admin.
import {
  type AdminRole,
  adminRoleSchema,
  type CalendarQuery,
  type DriverCalendar,
  type DriverDashboard,
  driverCalendarSchema,
  driverDashboardResponseSchema,
  type LatencySummary,
  latencyResponseSchema,
  type Outcomes,
  outcomesResponseSchema,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

const userPath = (phone: string) => `/api/flex/v1/admin/users/${encodeURIComponent(phone)}`;

export function adminDriversResource(http: Requester) {
  return {
    async userDashboard(phone: string, options?: RequestOptions): Promise<DriverDashboard> {
      return (
        await http.get(`${userPath(phone)}/dashboard`, driverDashboardResponseSchema, options)
      ).Item;
    },
    /** The driver's catcher latency over the last day. */
    async userLatency(phone: string, options?: RequestOptions): Promise<LatencySummary> {
      return (await http.get(`${userPath(phone)}/latency`, latencyResponseSchema, options)).Item;
    },
    /** Makes the Flex user with this phone an admin, or takes admin away (owners only). */
    setAdmin(phone: string, admin: boolean, options?: RequestOptions): Promise<AdminRole> {
      return http.put(`${userPath(phone)}/role`, adminRoleSchema, { admin }, options);
    },
    /** What the catcher made of the driver's offers over the last day and week. */
    async userOutcomes(phone: string, options?: RequestOptions): Promise<Outcomes> {
      return (await http.get(`${userPath(phone)}/outcomes`, outcomesResponseSchema, options)).Item;
    },
    /** The same across every driver. */
    async allOutcomes(options?: RequestOptions): Promise<Outcomes> {
      return (await http.get('/api/flex/v1/admin/outcomes', outcomesResponseSchema, options)).Item;
    },
    async userCalendar(
      phone: string,
      query: CalendarQuery = {},
      options?: RequestOptions,
    ): Promise<DriverCalendar> {
      return http.get(`${userPath(phone)}/calendar`, driverCalendarSchema, {
        ...options,
        query: { from: query.from, to: query.to },
      });
    },
  };
}
