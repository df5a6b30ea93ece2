// The pure part of a send request: its recipients normalised and deduplicated,
// the permissions it needs, the fingerprint that tells a replay from a different request, and the
// answer it gets.
import { createHash } from 'node:crypto';
import { type Channel, normalizePhone, type SendResult, segmentSms } from '@blockcatch/sdk';
import { isOwner, type Principal } from '../api/authenticate.js';
import { forbidden, invalid, quote } from '../http/errors.js';

/**
 * Every number in `+1XXXXXXXXXX` form, in request order, each once. One bad number refuses the
 * whole request, naming where it was, so nothing is half-sent.
 */
export function normaliseRecipients(numbers: readonly { number: string }[]): string[] {
  const seen = new Set<string>();
  for (const [index, { number }] of numbers.entries()) {
    const phone = normalizePhone(number);
    if (phone === null) {
      throw invalid(
        `numbers.${index}.number`,
        `${quote(number)} is not a valid US phone number; use 10 digits, optionally with a leading 1`,
      );
    }
    seen.add(phone);
  }
  return [...seen];
}

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

export function sendAnswer(
  jobId: string,
  queued: number,
  skipped: NonNullable<SendResult['skipped']>,
): SendResult {
  return {
    message: `Message sent successfully to ${queued} users.`,
    jobId,
    queued,
    skipped,
  };
}
