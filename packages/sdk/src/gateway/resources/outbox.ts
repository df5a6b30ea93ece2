// GET /api/sandbox/outbox: what the sandbox's message provider "delivered" (admins only).
import { z } from 'zod';
import type { Requester, RequestOptions } from '../client.js';

export const outboxMessageSchema = z.object({
  id: z.number().int(),
  channel: z.enum(['sms', 'whatsapp']),
  to: z.string(),
  body: z.string(),
  template: z.unknown().optional(),
  jobId: z.string().nullable(),
  createdAt: z.number(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

export const outboxResponseSchema = z.object({ Items: z.array(outboxMessageSchema) });

export interface OutboxQuery {
  /** One phone number, `+1XXXXXXXXXX`. */
  to?: string;
  /** Only messages with an id above this, for polling forward. */
  after?: number;
  limit?: number;
}

export function outboxResource(http: Requester) {
  return {
    /** Newest first. */
    async outbox(query: OutboxQuery = {}, options?: RequestOptions): Promise<OutboxMessage[]> {
      return (
        await http.get('/api/sandbox/outbox', outboxResponseSchema, {
          ...options,
          query: { to: query.to, after: query.after, limit: query.limit },
        })
      ).Items;
    },
  };
}
