// The staff audit trail: every action an admin or owner takes (sends, cancels, approvals, exports,
// refunds, tokens, settings, sign-ins to the admin area), as the gateway records it and the Audit
// page and its CSV export read it.
import { z } from 'zod';
import { csvLine } from '../csv.js';
import { boundedFormat } from './bounds.js';

export const AUDIT_ACTIONS = [
  'admin.sign-in',
  'send.create',
  'send.test',
  'send.cancel',
  'send.approve',
  'send.reject',
  'export.users',
  'export.invitations',
  'export.audit',
  'refund.create',
  'token.create',
  'token.revoke',
  'settings.change',
  'role.change',
  'template.change',
] as const;
export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;

export const auditEventSchema = z.object({
  id: z.number().int(),
  /** Epoch ms. */
  at: z.number(),
  actorId: z.string(),
  actorName: z.string(),
  actorPhone: z.string(),
  action: auditActionSchema,
  /** What it acted on: a send job, a payment, a token, a setting. */
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  /** The caller's address as the gateway saw it (behind trusted proxies, the client's). */
  ip: z.string().nullable(),
  /** Set when a machine token acted rather than a signed-in person. */
  tokenId: z.string().nullable(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

/** The Audit page's filters; `before` (an event id) pages back. */
export const auditQuerySchema = z.strictObject({
  action: auditActionSchema.optional(),
  /** Part of the actor's name or phone number. */
  actor: z.string().min(1).max(100).optional(),
  /** First and last day (UTC, YYYY-MM-DD) included. */
  from: boundedFormat(10, z.iso.date('from must be a day as YYYY-MM-DD')).optional(),
  to: boundedFormat(10, z.iso.date('to must be a day as YYYY-MM-DD')).optional(),
  before: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditListSchema = z.object({ Items: z.array(auditEventSchema), more: z.boolean() });

/** The export: the CSV text and how many events it holds (at most AUDIT_EXPORT_MAX_ROWS). */
export const auditExportSchema = z.object({ csv: z.string(), rows: z.number().int() });
export const AUDIT_EXPORT_MAX_ROWS = 50_000;

export const AUDIT_CSV_HEADER = csvLine([
  'id',
  'time_utc',
  'actor',
  'actor_phone',
  'action',
  'target',
  'detail',
  'ip',
  'token_id',
]);

/** One event as a CSV line, every field through csvField (a name or a note may start with `=`). */
export function auditCsvLine(event: AuditEvent): string {
  return csvLine([
    String(event.id),
    new Date(event.at).toISOString(),
    event.actorName,
    event.actorPhone,
    event.action,
    event.target ?? '',
    JSON.stringify(event.detail),
    event.ip ?? '',
    event.tokenId ?? '',
  ]);
}
