// The largest values the API takes, shared by the gateway's route schemas and the clients' forms.
// A bound is checked before any pattern reads the value, and a failed bound ends the checks
// (`abort: true`): a pattern then never runs on 50,000 characters, however it is written.
import { z } from 'zod';

/** A string format (an ISO date, a UUID) read only once the value is within `max` characters. */
export function boundedFormat<T extends z.ZodType<unknown, string>>(max: number, format: T) {
  return z.string().max(max, { abort: true }).pipe(format);
}

export const MAX_NAME_LENGTH = 100;
export const MAX_EMAIL_LENGTH = 254;
/** Ten SMS segments of GSM text; longer texts are refused, not split further. */
export const MAX_MESSAGE_LENGTH = 1600;
/** Any written phone number, before normalisation: `+1 (512) 555-0100` and its variants. */
export const MAX_PHONE_LENGTH = 40;
/** Dollars: block pay and hourly pay filters. */
export const MAX_MONEY = 10_000;
/** A day: the time buffer before a block starts. */
export const MAX_BUFFER_MINUTES = 1440;
export const MAX_RECIPIENTS = 100_000;
/** Identifiers and other short codes (ids, keys, service areas, languages). */
export const MAX_ID_LENGTH = 100;
