// GET /api/flex/v1/admin/invitations: the invitations drivers sent; and the invitation texts kept
// for a later hour by the service's hourly total.
import {
  type Invitation,
  type InvitationBacklog,
  invitationBacklogResponseSchema,
  invitationsResponseSchema,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

export function invitationsResource(http: Requester) {
  return {
    async invitations(options?: RequestOptions): Promise<Invitation[]> {
      return (await http.get('/api/flex/v1/admin/invitations', invitationsResponseSchema, options))
        .Items;
    },
    async invitationBacklog(options?: RequestOptions): Promise<InvitationBacklog> {
      return http.get(
        '/api/flex/v1/admin/invitation-backlog',
        invitationBacklogResponseSchema,
        options,
      );
    },
  };
}
