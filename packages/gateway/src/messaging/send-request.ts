// The pure part of a send request: the permissions it needs, the content that tells a re-run of a
// send from a different one under the same key, and the answer it gets.
import { createHash } from 'node:crypto';
import { type Channel, type MsgTemplate, type SendResult, segmentSms } from '@blockcatch/sdk';
import { isOwner, type Principal } from '../api/authenticate.js';
import { forbidden } from '../http/errors.js';

/** The permissions a send needs that do not depend on who receives it. */
export function authorizeSendKind(principal: Principal, send: SendKind): void {
  const { user } = principal;
  if (!user.is_admin) throw forbidden('Sending messages needs an admin account.');
  if (send.channel === 'whatsapp' && !user.can_see_billing) {
    throw forbidden('WhatsApp template messages need the billing-details permission.');
  }
  if (send.channel === 'sms') {
    const { segments } = segmentSms(send.message);
    if (segments > 1 && !user.can_send_multi_segment) {
      throw forbidden(
        `'Limit characters' applies: this message needs ${segments} SMS segments, and your role may send only single-segment messages. Shorten it, or ask an owner for the multi-segment permission.`,
      );
    }
  }
}

export type SendKind = { channel: 'sms'; message: string } | { channel: 'whatsapp' };

/** Non-owners may send only to pending invitees (the unpaid-invitations screen). */
export function authorizeRecipients(
  principal: Principal,
  recipients: readonly string[],
  pendingInvitees: ReadonlySet<string>,
): void {
  if (isOwner(principal)) return;
  const outsiders = recipients.filter((r) => !pendingInvitees.has(r));
  if (outsiders.length > 0) {
    throw forbidden(
      `Only an owner may message users who are not pending invitees; ${outsiders.length} recipient(s) are not, e.g. ${outsiders[0]}.`,
    );
  }
}

/** A stable fingerprint of what was asked, to tell a retry from a different request under one key. */
export function fingerprintRequest(channel: Channel, payload: unknown): string {
  return createHash('sha256')
    .update(channel)
    .update('\n')
    .update(JSON.stringify(payload))
    .digest('hex');
}

/**
 * The answer to an accepted send: how many were queued (or scheduled), how many were skipped and
 * why, and how many wait for quiet hours. It says "queued": nothing has been delivered yet.
 */
export function sendAnswer(
  jobId: string,
  queued: number,
  skipped: NonNullable<SendResult['skipped']>,
  timing: { sendAt: number | null; waitingForQuietHours: number },
): SendResult {
  const reasons = new Map<string, number>();
  for (const { reason } of skipped) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  const parts = [
    timing.sendAt === null
      ? `Message queued for ${queued} users.`
      : `Message scheduled for ${queued} users at ${new Date(timing.sendAt).toISOString()}.`,
  ];
  if (skipped.length > 0) {
    const why = [...reasons].map(([reason, n]) => `${n} ${reason}`).join(', ');
    parts.push(`Skipped ${skipped.length} (${why}).`);
  }
  if (timing.waitingForQuietHours > 0) {
    parts.push(`${timing.waitingForQuietHours} will wait for 8 am in their time zone.`);
  }
  return {
    message: parts.join(' '),
    jobId,
    queued,
    skipped,
    ...(timing.sendAt === null ? {} : { sendAt: timing.sendAt }),
    waitingForQuietHours: timing.waitingForQuietHours,
  };
}

/**
 * What a send sends, as its job keeps it: the channel, the text or the template with its values,
 * and the schedule. Recipients are not part of it: the same content under the same key is the
 * same job, and more recipients are added to it.
 */
export interface SendContent {
  channel: Channel;
  text: string | null;
  template: { name: string; language: string } | null;
  values: Record<string, string>;
  /** The scheduled start (epoch ms), or null for at once. */
  sendAt: number | null;
  /** True when `sendAt`'s time is read in each recipient's zone (absent otherwise). */
  localTime?: true;
}

export function sendContentOf(
  payload: { message: string } | { msgTemplate: MsgTemplate },
  sendAt: number | null,
  localTime = false,
): SendContent {
  const local = localTime ? { localTime: true as const } : {};
  if ('message' in payload) {
    return { channel: 'sms', text: payload.message, template: null, values: {}, sendAt, ...local };
  }
  const { name, language, values = {} } = payload.msgTemplate;
  const sorted = Object.fromEntries(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    channel: 'whatsapp',
    text: null,
    template: { name, language },
    values: sorted,
    sendAt,
    ...local,
  };
}

/** The job's fingerprint: equal exactly when the content is. */
export function contentHash(content: SendContent): string {
  const canonical = JSON.stringify([
    content.channel,
    content.text,
    content.template && [content.template.name, content.template.language],
    Object.entries(content.values),
    content.sendAt,
    // Only a local-time send adds it, so jobs from before it keep their fingerprints.
    ...(content.localTime ? ['local'] : []),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

const PART_NAMES: Record<keyof SendContent, string> = {
  channel: 'the channel',
  text: 'the text',
  template: 'the template',
  values: 'the template values',
  sendAt: 'the schedule (--at, sendAt)',
  localTime: "the recipients' own time (--local-time, localTime)",
};

/** What differs between the content a job keeps and a new request's, in words. */
export function changedParts(stored: unknown, asked: SendContent): string[] {
  if (stored === null || typeof stored !== 'object') return ['the content'];
  const before = stored as Partial<SendContent>;
  return (Object.keys(PART_NAMES) as (keyof SendContent)[])
    .filter((part) => JSON.stringify(before[part] ?? null) !== JSON.stringify(asked[part] ?? null))
    .map((part) => PART_NAMES[part]);
}

/** A job's answer to one request under its key: what was added now, and what it had already. */
export function jobAnswer(
  jobId: string,
  parts: {
    queued: number;
    added: number;
    earlier: number;
    skipped: NonNullable<SendResult['skipped']>;
    sendAt: number | null;
    waiting: { count: number; until: number | null };
    estimatedCost: number;
  },
): SendResult {
  const base = sendAnswer(jobId, parts.queued, parts.skipped, {
    sendAt: parts.sendAt,
    waitingForQuietHours: parts.waiting.count,
  });
  let message = base.message ?? '';
  if (parts.earlier > 0 && parts.added === 0) {
    message = `Already sent earlier under this key (job ${jobId}, ${parts.earlier} ${parts.earlier === 1 ? 'recipient' : 'recipients'}); nothing sent now.`;
  } else if (parts.earlier > 0) {
    message = `${parts.earlier} sent earlier, ${parts.added} added. ${message}`;
  }
  return {
    ...base,
    message,
    added: parts.added,
    earlier: parts.earlier,
    estimatedCost: Math.round(parts.estimatedCost * 10_000) / 10_000,
    ...(parts.waiting.count > 0 && parts.waiting.until !== null
      ? { quietHoursUntil: parts.waiting.until }
      : {}),
  };
}
