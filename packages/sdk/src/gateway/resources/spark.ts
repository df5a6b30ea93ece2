// GET /api/spark/v1/admin/all-users-table: every Spark user, for the admin tables.
import { type SparkUser, sparkUsersResponseSchema } from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

export function sparkResource(http: Requester) {
  return {
    async users(options?: RequestOptions): Promise<SparkUser[]> {
      return (
        await http.get('/api/spark/v1/admin/all-users-table', sparkUsersResponseSchema, options)
      ).Items;
    },
  };
}
