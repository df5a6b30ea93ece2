// GET /api/flex/v1/admin/referrals: the referral codes (needs the billing-details permission).
import { type Referral, referralsResponseSchema } from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

export function referralsResource(http: Requester) {
  return {
    async referrals(options?: RequestOptions): Promise<Referral[]> {
      return (await http.get('/api/flex/v1/admin/referrals', referralsResponseSchema, options))
        .Items;
    },
  };
}
