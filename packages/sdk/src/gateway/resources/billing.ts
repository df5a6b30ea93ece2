// GET /api/flex/v1/admin/billing: succeeded payments per calendar day (needs billing details).
import {
  type BillingQuery,
  type BillingResponse,
  billingResponseSchema,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../client.js';

export function billingResource(http: Requester) {
  return {
    /** From `from` to `to` (default `from`), days read in `timeZone` (default America/New_York). */
    async billing(query: BillingQuery, options?: RequestOptions): Promise<BillingResponse> {
      return http.get('/api/flex/v1/admin/billing', billingResponseSchema, {
        ...options,
        query: { from: query.from, to: query.to, timeZone: query.timeZone },
      });
    },
  };
}
