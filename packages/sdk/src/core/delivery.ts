// What happens to a message after the gateway accepts it: the states a recipient goes through,
// what a provider's error code means, and when quiet hours let a marketing message reach someone.
import { offsetAt } from './days.js';

/** Every state a recipient of a send job can be in, in the order a report lists them. */
export const RECIPIENT_STATES = [
  'queued',
  'sending',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'cancelled',
  'expired',
  'skipped-opted-out',
  'skipped-invalid',
  'skipped-landline',
  'skipped-no-consent',
  'skipped-weekly-cap',
] as const;
export type RecipientState = (typeof RECIPIENT_STATES)[number];

/** States after which nothing more will happen to a recipient without a status callback. */
export const WAITING_STATES: readonly RecipientState[] = ['queued', 'sending'];
/** States that count as a recipient who did not get the message. */
export const FAILED_STATES: readonly RecipientState[] = ['undelivered', 'failed'];

/** Twilio's delivery error codes and what they mean to the person who sent the message. */
export const PROVIDER_ERROR_MEANINGS: Readonly<Record<number, string>> = {
  21211: 'invalid number',
  21610: 'opted out (replied STOP)',
  21614: 'not a mobile number',
  30003: 'unreachable (phone off or out of coverage)',
  30005: 'unknown number (does not exist)',
  30006: 'landline or unreachable carrier',
  30007: 'filtered by the carrier as spam',
  63016: 'outside the WhatsApp 24-hour window (send a template)',
};

export function providerErrorMeaning(code: number | null | undefined): string | null {
  if (code === null || code === undefined) return null;
  return PROVIDER_ERROR_MEANINGS[code] ?? `provider error ${code}`;
}

/** The product's own zone (support hours are Eastern): used when a recipient's is unknown. */
export const PRODUCT_TIME_ZONE = 'America/New_York';

/** The zone of each delivery region the product serves. */
export const REGION_TIME_ZONES: Readonly<Record<string, string>> = {
  Atlanta: 'America/New_York',
  Chicago: 'America/Chicago',
  Dallas: 'America/Chicago',
  Houston: 'America/Chicago',
  'Las Vegas': 'America/Los_Angeles',
  'Los Angeles': 'America/Los_Angeles',
  Miami: 'America/New_York',
  'New York': 'America/New_York',
  Orlando: 'America/New_York',
  Phoenix: 'America/Phoenix',
  'San Antonio': 'America/Chicago',
  Tampa: 'America/New_York',
};

/** A region's zone, else `fallback` (the gateway's configured product zone). */
export function regionTimeZone(
  region: string | null | undefined,
  fallback: string = PRODUCT_TIME_ZONE,
): string {
  return (region && REGION_TIME_ZONES[region]) || fallback;
}

/** Marketing messages reach people from 8 am up to 9 pm in their own zone. */
export const QUIET_HOURS = { startHour: 21, endHour: 8 } as const;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * When a marketing message due at `ts` may reach someone in `timeZone`: `ts` itself outside quiet
 * hours, else the next 8 am there.
 */
export function quietHoursRelease(ts: number, timeZone: string): number {
  const offset = offsetAt(ts, timeZone);
  const intoDay = (((ts + offset) % DAY_MS) + DAY_MS) % DAY_MS;
  const hour = intoDay / HOUR_MS;
  if (hour >= QUIET_HOURS.endHour && hour < QUIET_HOURS.startHour) return ts;
  const wait =
    hour < QUIET_HOURS.endHour
      ? QUIET_HOURS.endHour * HOUR_MS - intoDay
      : DAY_MS - intoDay + QUIET_HOURS.endHour * HOUR_MS;
  const release = ts + wait;
  // A daylight-saving change overnight moves the wall clock; keep 8 am on the wall.
  return release + offset - offsetAt(release, timeZone);
}
