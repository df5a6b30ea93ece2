// GET /api/flex/v1/admin/referrals: the referral codes (needs the billing-details permission).
import { type Referral, referralsResponseSchema } from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../client.js';

export function referralsResource(http: Requester) {
  return {
    async referrals(options?: RequestOptions): Promise<Referral[]> {
      const response = await http.request({
        method: 'GET',
        path: '/api/flex/v1/admin/referrals',
        schema: referralsResponseSchema,
        ...(options ? { options } : {}),
      });
      return response.data.Items;
    },
  };
}
