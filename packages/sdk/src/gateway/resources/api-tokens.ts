// Tokens for machines (a cron job's BLOCKCATCH_TOKEN): create one (its secret comes back once),
// list them without secrets, revoke one.
import { z } from 'zod';
import type { Requester, RequestOptions } from '../client.js';

export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  userId: z.string(),
  createdAt: z.number(),
  expiresAt: z.number(),
  lastUsedAt: z.number().nullable(),
  revokedAt: z.number().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** A new token: the only answer that holds its secret. */
export const createdApiTokenSchema = apiTokenSchema.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

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
      return (await http.get(PATH, z.object({ Items: z.array(apiTokenSchema) }), options)).Items;
    },
    revoke(id: string, options?: RequestOptions): Promise<ApiToken> {
      return http.delete(`${PATH}/${encodeURIComponent(id)}`, apiTokenSchema, options);
    },
  };
}
