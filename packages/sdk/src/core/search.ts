// The review screens' search box: which recipients a typed query matches.

import { hasNormalizedPhone, normalizePhone } from './phone.js';

/** What search reads: Flex rows carry `humanRegion`, Spark rows `driverOptions.deliveryArea`. */
export interface SearchableRow {
  readonly name: string;
  readonly phoneNumber: string;
  readonly referral?: string | null;
  readonly humanRegion?: string | null;
  readonly driverOptions?: { readonly deliveryArea?: string | null };
}

const REGEX_SYNTAX = /[.*+?^${}()|[\]\\]/g;
const PHONE_NOTATION = /^[\d\s()+.-]+$/;

/**
 * Which phone numbers a query names beyond its text: the same number in another notation
 * ('(555) 123-4567'), or a printed piece of one ('555-0105', 4 digits or more) inside a number's
 * digits. Null when the query is no phone number at all.
 */
function phoneQueryMatcher(text: string): ((phoneNumber: string) => boolean) | null {
  const query = phoneQuery(text);
  if (query === null) return null;
  const { phone, digits } = query;
  return (phoneNumber) =>
    (phone !== null && hasNormalizedPhone(phoneNumber, phone)) ||
    (digits !== null && digitsOf(phoneNumber).includes(digits));
}

/**
 * The parts of a query that name phone numbers: the number it normalises to, and the digits of a
 * printed piece of one. Null when it has neither.
 */
export function phoneQuery(text: string): { phone: string | null; digits: string | null } | null {
  const phone = normalizePhone(text);
  const digits = phoneFragment(text);
  return phone === null && digits === null ? null : { phone, digits };
}

/** The digits of a query written like a piece of a phone number, with 4 or more of them. */
function phoneFragment(text: string): string | null {
  if (!PHONE_NOTATION.test(text)) return null;
  const digits = digitsOf(text);
  return digits.length >= 4 ? digits : null;
}

const PLAIN_PHONE = /^\+?\d*$/;

/** The ASCII digits of `text`, in order: what phone search compares. */
export function digitsOf(text: string): string {
  // Stored numbers are '+1' and digits: a slice, not a pattern replacing, for the common case.
  if (PLAIN_PHONE.test(text)) return text.startsWith('+') ? text.slice(1) : text;
  return text.replace(/\D+/g, '');
}

/**
 * The rows whose name, phone number, region or referral contains `query`, ignoring case, in their
 * order. The query is trimmed; a blank one keeps every row. A query that is a phone number in any
 * notation ('(555) 123-4567') also matches rows whose number normalises to the same one, and a
 * part of a number as tables print it ('555-0105', '(305) 555') matches the numbers whose digits
 * contain its digits. The result is always a new array, so callers may sort it.
 */
export function searchRecipients<T extends SearchableRow>(rows: readonly T[], query: string): T[] {
  const text = query.trim();
  if (text === '') return rows.slice();
  const pattern = recipientPattern(text);
  const phone = phoneQueryMatcher(text);
  // Indices into a typed array, rows copied out once the count is known: pushing a large result
  // costs more than the matching itself, and a row-sized array up front is waste for a small one.
  const picked = new Uint32Array(rows.length);
  let count = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (matchesRecipientPattern(row, pattern) || phone?.(row.phoneNumber)) {
      picked[count++] = i;
    }
  }
  const matches = new Array<T>(count);
  for (let j = 0; j < count; j++) matches[j] = rows[picked[j]!]!;
  return matches;
}

/**
 * The pattern a trimmed, non-blank query becomes: its text, case-insensitive. One compiled pattern
 * tests each field in place; lower-casing every field would allocate four strings per row. The u
 * flag folds case by Unicode's table (so 'k' also finds the Kelvin sign), the nearest a pattern
 * comes to lower-casing both sides.
 */
export function recipientPattern(text: string): RegExp {
  // recheck-ignore: every syntax character is escaped, so this is the literal text: no repetition.
  return new RegExp(text.replace(REGEX_SYNTAX, '\\$&'), 'iu');
}

/** Whether the row's name, phone number, region or referral holds `pattern`. */
export function matchesRecipientPattern(row: SearchableRow, pattern: RegExp): boolean {
  const region = row.humanRegion;
  const area = row.driverOptions?.deliveryArea;
  const referral = row.referral;
  return (
    pattern.test(row.name) ||
    pattern.test(row.phoneNumber) ||
    (region != null && pattern.test(region)) ||
    (area != null && pattern.test(area)) ||
    (referral != null && pattern.test(referral))
  );
}
