// The pure part of a send request: the permissions it needs, the fingerprint that tells a replay
// from a different request, and the answer it gets.
import { createHash } from 'node:crypto';
import { type Channel, type SendResult, segmentSms } from '@blockcatch/sdk';
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
