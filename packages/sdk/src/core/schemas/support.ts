// Support requests: what a signed-in driver asks from the Contact page, and staff's answer from the
// admin Support inbox, texted to the driver or shown in the app.
import { z } from 'zod';
import { MAX_ID_LENGTH, MAX_NAME_LENGTH, MAX_PHONE_LENGTH } from './bounds.js';

export const SUPPORT_TOPICS = ['account', 'payment', 'blocks', 'filters', 'other'] as const;
export type SupportTopic = (typeof SUPPORT_TOPICS)[number];

/** A request's words: room for a few paragraphs, bounded before anything reads them. */
export const MAX_SUPPORT_MESSAGE_LENGTH = 2000;
/** An answer: a few SMS segments, since it may be texted. */
export const MAX_SUPPORT_REPLY_LENGTH = 1000;
/** Requests a driver may have waiting at once; more wait until staff answer. */
export const MAX_OPEN_SUPPORT_REQUESTS = 5;

export const SUPPORT_STATUSES = ['open', 'answered'] as const;
export type SupportStatus = (typeof SUPPORT_STATUSES)[number];

/** How staff send an answer: texted (and shown in the app) or shown in the app only. */
const SUPPORT_REPLY_CHANNELS = ['sms', 'app'] as const;

/** Words with something besides spaces, within `max` characters. */
const words = (max: number) =>
  z
    .string({ message: 'expected text' })
    .max(max, { message: `use at most ${max} characters`, abort: true })
    .refine((text) => text.trim().length > 0, { message: 'write a few words' });

export const newSupportRequestSchema = z.strictObject({
  topic: z.enum(SUPPORT_TOPICS, {
    message: `expected one of ${SUPPORT_TOPICS.map((t) => `'${t}'`).join(', ')}`,
  }),
  message: words(MAX_SUPPORT_MESSAGE_LENGTH),
});
export type NewSupportRequest = z.infer<typeof newSupportRequestSchema>;

export const supportReplySchema = z.strictObject({
  reply: words(MAX_SUPPORT_REPLY_LENGTH),
  channel: z.enum(SUPPORT_REPLY_CHANNELS, { message: "expected 'sms' or 'app'" }),
});
export type SupportReply = z.infer<typeof supportReplySchema>;

export const supportRequestSchema = z.object({
  id: z.string().max(MAX_ID_LENGTH),
  topic: z.enum(SUPPORT_TOPICS),
  message: z.string(),
  /** The driver's name and phone when they asked. */
  name: z.string().max(MAX_NAME_LENGTH),
  phoneNumber: z.string().max(MAX_PHONE_LENGTH),
  status: z.enum(SUPPORT_STATUSES),
  reply: z.string().nullable(),
  replyChannel: z.enum(SUPPORT_REPLY_CHANNELS).nullable(),
  /** Epoch ms. */
  createdAt: z.number(),
  answeredAt: z.number().nullable(),
});
export type SupportRequest = z.infer<typeof supportRequestSchema>;

export const supportRequestResponseSchema = z.object({ Item: supportRequestSchema });
export const supportRequestsResponseSchema = z.object({ Items: z.array(supportRequestSchema) });

export const supportInboxQuerySchema = z.strictObject({
  status: z.enum(SUPPORT_STATUSES, { message: "expected 'open' or 'answered'" }).default('open'),
});
