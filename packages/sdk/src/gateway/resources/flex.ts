// GET /api/flex/v1/all-users-table: every Flex user, for the admin tables.
import { type FlexUser, flexUsersResponseSchema } from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

export function flexResource(http: Requester) {
  return {
    async users(options?: RequestOptions): Promise<FlexUser[]> {
      return (await http.get('/api/flex/v1/all-users-table', flexUsersResponseSchema, options))
        .Items;
    },
  };
}
