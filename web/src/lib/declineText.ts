// The words for a processor's decline code: what happened and what to do, in the driver's language.
import type { TFunction } from 'i18next';

const KNOWN = new Set([
  'card_declined',
  'insufficient_funds',
  'authentication_required',
  'expired_card',
]);
/** Codes that mean the bank did not confirm the payer (3-D Secure). */
const AUTHENTICATION = new Set([
  'authentication_required',
  'payment_intent_authentication_failure',
]);

export function declineText(t: TFunction, code: string | null | undefined): string {
  if (code && AUTHENTICATION.has(code)) return t('flex.payment.declined.authentication_required');
  if (code && KNOWN.has(code)) return t(`flex.payment.declined.${code}`);
  // generic_decline, do_not_honor, … : the bank said no without saying why.
  return t('flex.payment.declined.card_declined');
}
