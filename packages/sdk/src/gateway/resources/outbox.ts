// GET /api/sandbox/outbox: what the sandbox's message provider "delivered" (admins only).
import { type OutboxMessage, outboxResponseSchema } from '../../core/schemas/outbox.js';
import type { Requester, RequestOptions } from '../requester.js';

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
