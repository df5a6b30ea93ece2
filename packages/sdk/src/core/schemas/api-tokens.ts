// Tokens for machines as the gateway shows them: never a secret, except once in a new token.
import { z } from 'zod';

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
export const apiTokensResponseSchema = z.object({ Items: z.array(apiTokenSchema) });
