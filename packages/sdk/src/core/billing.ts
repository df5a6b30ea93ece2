// Weekly billing rules shared by the gateway and the clients: how a payment moves a driver's
// expiration, what standing that gives, and the card-number check the sandbox card form uses.

/**
 * One week of service is 7 × 24 hours of elapsed time, not 7 calendar days in some zone: a week
 * bought at 9 pm before a daylight-saving change ends at 8 pm or 10 pm local time, but it is
 * always exactly 168 hours long, whoever reads it and wherever they are.
 */
export const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export const MIN_WEEKS = 1;
export const MAX_WEEKS = 52;

/** How long before expiry a paid driver counts as expiring (the dashboard's warning window). */
const EXPIRING_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The expiration after paying for `weeks` weeks: the weeks are added to the later of now and the
 * current expiration, so paying early never loses days and paying late never back-dates service.
 */
export function extendExpiration(current: number | null, now: number, weeks: number): number {
  if (!Number.isInteger(weeks) || weeks < 0) {
    throw new RangeError(`weeks must be a whole number of weeks, not ${weeks}`);
  }
  const from = current === null ? now : Math.max(current, now);
  return from + weeks * WEEK_MS;
}

/**
 * A paid renewal (or a week of referral credit): exactly one week from the end of the current paid
 * time, or from now when it already ran out.
 */
export function renewExpiration(current: number | null, now: number): number {
  return extendExpiration(current, now, 1);
}

/**
 * Refunded weeks are taken back from the end of the paid time; it may then lie in the past, and the
 * driver loses good standing. Null (never paid) stays null.
 */
export function refundExpiration(current: number | null, weeks: number): number | null {
  if (!Number.isInteger(weeks) || weeks < 0) {
    throw new RangeError(`weeks must be a whole number of weeks, not ${weeks}`);
  }
  return current === null ? null : current - weeks * WEEK_MS;
}

/**
 * The whole weeks a processor's cumulative refund covers on a payment of `weeks` weeks for
 * `amountCents`: a partial week refunded is not a week taken back.
 */
export function refundedWeeks(amountRefundedCents: number, amountCents: number, weeks: number) {
  if (amountCents <= 0 || weeks <= 0 || amountRefundedCents <= 0) return 0;
  return Math.min(weeks, Math.floor((amountRefundedCents * weeks) / amountCents));
}

/**
 * Days after a renewal first fails on which the card is tried again; after the last one fails the
 * subscription is canceled. All fall inside the paid week, so a driver who updates the card in time
 * never loses a day.
 */
export const DUNNING_RETRY_DAYS = [1, 3, 5] as const;

/** When the renewal is tried next after `attempts` failed attempts, or null when none is left. */
export function nextDunningAttempt(firstFailedAt: number, attempts: number): number | null {
  const days = DUNNING_RETRY_DAYS[attempts - 1];
  return days === undefined ? null : firstFailedAt + days * 24 * 60 * 60 * 1000;
}

/** What moves a driver's paid time, in order: the fold below is what the gateway applies. */
export type BillingEntry =
  | { kind: 'payment'; at: number; weeks: number }
  | { kind: 'renewal'; at: number }
  | { kind: 'credit'; at: number }
  | { kind: 'refund'; weeks: number };

/** The expiration after applying `entries` to `start`, as the gateway's webhooks apply them. */
export function expirationAfter(start: number | null, entries: readonly BillingEntry[]) {
  let current = start;
  for (const entry of entries) {
    if (entry.kind === 'payment') current = extendExpiration(current, entry.at, entry.weeks);
    else if (entry.kind === 'refund') current = refundExpiration(current, entry.weeks);
    else current = renewExpiration(current, entry.at);
  }
  return current;
}

/** In good standing while the paid-up time is still ahead. */
export function isGoodStanding(expiration: number | null, now: number): boolean {
  return expiration !== null && expiration > now;
}

export type PaymentStanding = 'paid' | 'expiring' | 'expired' | 'unpaid';

/** What a reseller sees for a referred user: never paid, lapsed, about to lapse, or paid up. */
export function paymentStanding(expiration: number | null, now: number): PaymentStanding {
  if (expiration === null) return 'unpaid';
  if (expiration <= now) return 'expired';
  return expiration - now <= EXPIRING_WINDOW_MS ? 'expiring' : 'paid';
}

/** The digits of a card number typed with spaces or dashes, or null when anything else is in it. */
export function cardDigits(input: string): string | null {
  const digits = input.replace(/[\s-]/g, '');
  return /^\d{12,19}$/.test(digits) ? digits : null;
}

/** The Luhn check every card number passes; catches a mistyped digit or two swapped ones. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}
