// The signed-in driver's side of the referral program: invitations to friends and the reseller view.
import {
  type DriverInvitation,
  driverInvitationsResponseSchema,
  invitationResponseSchema,
  type ResellerView,
  resellerResponseSchema,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

const BASE = '/api/flex/v1';

export function driverReferralsResource(http: Requester) {
  return {
    /** Inviting the same friend again answers the first invitation, date unchanged. */
    async invite(phoneNumber: string, options?: RequestOptions): Promise<DriverInvitation> {
      return (
        await http.post(`${BASE}/invitations`, invitationResponseSchema, { phoneNumber }, options)
      ).Item;
    },
    /** My referral code, the free weeks earned and my invitations, newest first. */
    async invitations(options?: RequestOptions) {
      return http.get(`${BASE}/invitations`, driverInvitationsResponseSchema, options);
    },
    /** My invitation to that phone; 404 when I did not invite it. */
    async invitation(phoneNumber: string, options?: RequestOptions): Promise<DriverInvitation> {
      return (
        await http.get(
          `${BASE}/invite/${encodeURIComponent(phoneNumber)}`,
          invitationResponseSchema,
          options,
        )
      ).Item;
    },
    /** Resellers only (403 otherwise): the users who signed up with my code. */
    async reseller(options?: RequestOptions): Promise<ResellerView> {
      return http.get(`${BASE}/reseller`, resellerResponseSchema, options);
    },
  };
}
