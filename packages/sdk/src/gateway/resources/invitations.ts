// GET /api/flex/v1/admin/invitations: the invitations drivers sent.
import { type Invitation, invitationsResponseSchema } from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../client.js';

export function invitationsResource(http: Requester) {
  return {
    async invitations(options?: RequestOptions): Promise<Invitation[]> {
      return (await http.get('/api/flex/v1/admin/invitations', invitationsResponseSchema, options))
        .Items;
    },
  };
}
