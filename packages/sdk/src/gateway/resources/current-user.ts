// GET /api/flex/v1/user: the signed-in user, sent as `Item` or as `data`.
import { currentUserResponseSchema, type SignedInUser } from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

export function currentUserResource(http: Requester) {
  return {
    async me(options?: RequestOptions): Promise<SignedInUser> {
      return http.get('/api/flex/v1/user', currentUserResponseSchema, options);
    },
  };
}
