// Tokens for machines (a cron job's BLOCKCATCH_TOKEN): create one (its secret comes back once),
// list them without secrets, revoke one.
import {
  type ApiToken,
  apiTokenSchema,
  apiTokensResponseSchema,
  type CreatedApiToken,
  createdApiTokenSchema,
} from '../../core/schemas/api-tokens.js';
import type { Requester, RequestOptions } from '../requester.js';

const PATH = '/api/flex/v1/admin/api-tokens';

export function apiTokensResource(http: Requester) {
  return {
    create(
      request: { name: string; expiresInDays: number },
      options?: RequestOptions,
    ): Promise<CreatedApiToken> {
      return http.post(PATH, createdApiTokenSchema, request, options);
    },
    async list(options?: RequestOptions): Promise<ApiToken[]> {
      return (await http.get(PATH, apiTokensResponseSchema, options)).Items;
    },
    revoke(id: string, options?: RequestOptions): Promise<ApiToken> {
      return http.delete(`${PATH}/${encodeURIComponent(id)}`, apiTokenSchema, options);
    },
  };
}
