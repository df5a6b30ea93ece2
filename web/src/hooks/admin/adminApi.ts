// Admin reads beyond the SDK's resources (packages/gateway/API.md): a driver's dashboard seen by
// an admin, and the billing report. They move to SDK resource files once those exist.
import { billingResponseSchema, localTimeZone } from '@blockcatch/sdk';
import { z } from 'zod';
import { gateway } from '../../sdk.js';
import { type Dashboard, dashboardSchema } from '../driverApi.js';

export async function loadUserDashboard(phone: string): Promise<Dashboard> {
  const response = await gateway.request({
    method: 'GET',
    path: `/api/flex/v1/admin/users/${encodeURIComponent(phone)}/dashboard`,
    schema: z.object({ Item: dashboardSchema }),
  });
  return response.data.Item;
}

/** Succeeded payments per day from `from` to `to` (days in the browser's zone). */
export async function loadBilling(from: string, to: string) {
  const response = await gateway.request({
    method: 'GET',
    path: '/api/flex/v1/admin/billing',
    query: { from, to, timeZone: localTimeZone() },
    schema: billingResponseSchema,
  });
  return response.data;
}

/** Today as `YYYY-MM-DD` on the browser's wall clock. */
export function todayIso(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
