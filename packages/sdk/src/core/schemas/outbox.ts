// What the sandbox's message provider "delivered", as GET /api/sandbox/outbox lists it.
import { z } from 'zod';

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
