// What the admin screens send: SMS and WhatsApp payloads, templates, and the gateway's answers.
import { z } from 'zod';
import {
  boundedFormat,
  MAX_ID_LENGTH,
  MAX_MESSAGE_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PHONE_LENGTH,
  MAX_RECIPIENTS,
} from './bounds.js';

export const channelSchema = z.enum(['sms', 'whatsapp']);
export type Channel = z.infer<typeof channelSchema>;

export const templateComponentSchema = z.object({
  type: z.enum(['HEADER', 'BODY']),
  text: z.string(),
});
export type TemplateComponent = z.infer<typeof templateComponentSchema>;

/** Recipient fields a template variable can be bound to; `value` means one given with the send. */
const templateVariableSourceSchema = z.enum([
  'name',
  'firstName',
  'expirationDate',
  'referralCode',
  'invitePhone',
  'value',
]);

/** One `{{key}}` placeholder of a template and what fills it. */
export const templateVariableSchema = z.object({
  key: z
    .string()
    .max(40, { abort: true })
    .regex(/^[A-Za-z0-9_]{1,40}$/),
  type: z.enum(['text', 'date']),
  source: templateVariableSourceSchema,
});
export type TemplateVariable = z.infer<typeof templateVariableSchema>;

/**
 * Where WhatsApp stands on a template, as Twilio's Content API reports it
 * (`GET /v1/Content/{Sid}/ApprovalRequests`, `whatsapp.status`); `unknown` until first synced. Only
 * an `approved` template with a content id can be sent.
 */
export const TEMPLATE_APPROVAL_STATUSES = [
  'approved',
  'pending',
  'received',
  'rejected',
  'paused',
  'disabled',
  'unsubmitted',
  'unknown',
] as const;
export const templateApprovalStatusSchema = z.enum(TEMPLATE_APPROVAL_STATUSES);
export type TemplateApprovalStatus = z.infer<typeof templateApprovalStatusSchema>;

export const whatsappTemplateSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  language: z.string().min(2),
  components: z.array(templateComponentSchema),
  /** The provider's approved content id (Twilio Content API `ContentSid`, `HX…`). */
  contentSid: z
    .string()
    .max(34, { abort: true })
    .regex(/^HX[0-9a-f]{32}$/)
    .nullish(),
  variables: z.array(templateVariableSchema).optional(),
  /** WhatsApp's approval of the content id (absent in fixtures written before it). */
  approvalStatus: templateApprovalStatusSchema.optional(),
  /** Why WhatsApp rejected it, when it did. */
  rejectionReason: z.string().max(1000).nullish(),
});
export type WhatsappTemplate = z.infer<typeof whatsappTemplateSchema>;
export const templatesResponseSchema = z.object({ Items: z.array(whatsappTemplateSchema) });
/** After a sync: every template, and the ones whose status Twilio did not give (with why). */
export const templatesSyncResponseSchema = templatesResponseSchema.extend({
  failed: z.array(z.object({ id: z.string(), error: z.string() })),
});

export const recipientSchema = z.strictObject({ number: z.string().min(1).max(MAX_PHONE_LENGTH) });
export type Recipient = z.infer<typeof recipientSchema>;

/** When a scheduled send starts: an ISO date-time (the gateway bounds it to a year ahead). */
export const sendAtSchema = boundedFormat(40, z.iso.datetime({ offset: true, local: true }));

/**
 * True: `sendAt` (a date-time without an offset, e.g. 2026-12-01T10:00) is read in each
 * recipient's own time zone, so everyone gets the message at 10:00 where they are.
 */
const localTimeSchema = z.boolean().optional();

const recipientsSchema = z.array(recipientSchema).min(1).max(MAX_RECIPIENTS);

export const smsSendPayloadSchema = z.strictObject({
  numbers: recipientsSchema,
  message: z.string().min(1).max(MAX_MESSAGE_LENGTH),
  sendAt: sendAtSchema.optional(),
  localTime: localTimeSchema,
});
export type SmsSendPayload = z.infer<typeof smsSendPayloadSchema>;

export const msgTemplateSchema = z.strictObject({
  language: z.string().min(2).max(MAX_ID_LENGTH),
  name: z.string().min(1).max(MAX_NAME_LENGTH),
  components: z
    .array(
      z.strictObject({
        type: templateComponentSchema.shape.type,
        text: z.string().max(MAX_MESSAGE_LENGTH),
      }),
    )
    .max(10),
  /** Values for the template's variables bound to `value`, by key. */
  values: z
    .record(
      z
        .string()
        .max(40, { abort: true })
        .regex(/^[A-Za-z0-9_]{1,40}$/),
      z.string().max(1000),
    )
    .optional(),
});
export type MsgTemplate = z.infer<typeof msgTemplateSchema>;

export const whatsappSendPayloadSchema = z.strictObject({
  numbers: recipientsSchema,
  msgTemplate: msgTemplateSchema,
  sendAt: sendAtSchema.optional(),
  localTime: localTimeSchema,
});
export type WhatsappSendPayload = z.infer<typeof whatsappSendPayloadSchema>;

/**
 * Why a recipient is not sent to: opted out (of everything, or of the marketing sender), a number
 * that cannot take texts, no recorded consent to marketing, or the weekly marketing cap reached.
 */
export const skipReasonSchema = z.enum([
  'opted-out',
  'invalid',
  'landline',
  'no-consent',
  'weekly-cap',
]);
export type SkipReason = z.infer<typeof skipReasonSchema>;

/** The gateway's answer to a send: `message` is optional: clients fall back to their own text. */
export const sendResultSchema = z.object({
  message: z.string().optional(),
  jobId: z.string().optional(),
  queued: z.number().int().nonnegative().optional(),
  skipped: z.array(z.object({ number: z.string(), reason: skipReasonSchema })).optional(),
  /** When a scheduled send starts (epoch ms). */
  sendAt: z.number().optional(),
  /** How many of the queued recipients are in quiet hours now and will wait for 8 am. */
  waitingForQuietHours: z.number().int().nonnegative().optional(),
  /** When the last of them is released (epoch ms). */
  quietHoursUntil: z.number().optional(),
  /** Recipients this request added to the job named by its key (queued now or skipped). */
  added: z.number().int().nonnegative().optional(),
  /** Recipients of this request the job already had: nothing was sent to them now. */
  earlier: z.number().int().nonnegative().optional(),
  /** US dollars, at the gateway's prices, of what this request queued. */
  estimatedCost: z.number().nonnegative().optional(),
  /** The send waits for another admin's approval before anything goes. */
  pendingApproval: z.boolean().optional(),
});
export type SendResult = z.infer<typeof sendResultSchema>;

/**
 * "Send a test to me": the message a send would send, rendered for one of its recipients
 * (`renderFor`, by default the admin themself), delivered to the admin's own phone only. It makes
 * no send job, so no count, report or result ever includes it.
 */
export const testSendPayloadSchema = z.discriminatedUnion('channel', [
  z.strictObject({
    channel: z.literal('sms'),
    message: smsSendPayloadSchema.shape.message,
    renderFor: z.string().min(1).max(MAX_PHONE_LENGTH).optional(),
  }),
  z.strictObject({
    channel: z.literal('whatsapp'),
    msgTemplate: msgTemplateSchema,
    renderFor: z.string().min(1).max(MAX_PHONE_LENGTH).optional(),
  }),
]);
export type TestSendPayload = z.infer<typeof testSendPayloadSchema>;

export const testSendResultSchema = z.object({
  /** The admin's own phone, where the test went. */
  to: z.string(),
  /** The recipient it was rendered for. */
  renderedFor: z.string(),
  text: z.string(),
  segments: z.number().int().positive(),
  test: z.literal(true),
});
export type TestSendResult = z.infer<typeof testSendResultSchema>;
