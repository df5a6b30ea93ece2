// Admin billing (needs billing details): succeeded payments per calendar day, the subscription
// overview (active, weekly revenue, dunning, cancellations, disputes, refunds) and refunds.
import {
  type BillingOverview,
  type BillingQuery,
  type BillingResponse,
  billingOverviewSchema,
  billingResponseSchema,
  type RefundRequest,
  refundResponseSchema,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

export function billingResource(http: Requester) {
  return {
    /** From `from` to `to` (default `from`), days read in `timeZone` (default America/New_York). */
    async billing(query: BillingQuery, options?: RequestOptions): Promise<BillingResponse> {
      return http.get('/api/flex/v1/admin/billing', billingResponseSchema, {
        ...options,
        query: { from: query.from, to: query.to, timeZone: query.timeZone },
      });
    },
    async billingOverview(options?: RequestOptions): Promise<BillingOverview> {
      return http.get('/api/flex/v1/admin/billing/overview', billingOverviewSchema, options);
    },
    /** Refunds whole weeks of a payment; the weeks are taken back once the processor confirms. */
    async refund(body: RefundRequest, options?: RequestOptions) {
      return (
        await http.post('/api/flex/v1/admin/billing/refunds', refundResponseSchema, body, options)
      ).Item;
    },
  };
}
