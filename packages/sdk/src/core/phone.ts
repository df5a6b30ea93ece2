// US phone numbers as the admin screens key, search and show them: `+1` and ten digits.

const NON_DIGITS = /\D/g;
const ZERO = 48;
const NINE = 57;
const PLUS = 43;
const ONE = 49;

const E164_US = /^\+1\d{10}$/;

/**
 * The canonical `+1XXXXXXXXXX` form of a US number, or null when the digits are not one.
 * Ten digits, eleven starting with 1, or twelve starting with 01 are accepted; every
 * non-digit (spaces, dashes, brackets, a leading +) is ignored.
 */
export function normalizePhone(input: string): string | null {
  // Stored numbers are already in this form: an export of a million skips a million copies.
  if (input.length === 12 && E164_US.test(input)) return input;
  const digits = input.replace(NON_DIGITS, '');
  const accepted =
    digits.length === 10 ||
    (digits.length === 11 && digits.startsWith('1')) ||
    (digits.length === 12 && digits.startsWith('01'));
  return accepted ? `+1${digits.slice(-10)}` : null;
}

/** `+1 (xxx) xxx-xxxx` for ten digits or eleven starting with 1; '' for anything else. */
export function formatPhone(input: string): string {
  const digits = input.replace(NON_DIGITS, '');
  if (digits.length !== 10 && !(digits.length === 11 && digits.startsWith('1'))) return '';
  const local = digits.slice(-10);
  return `+1 (${local.slice(0, 3)}) ${local.slice(3, 6)}-${local.slice(6)}`;
}

/**
 * Whether `normalizePhone(raw) === normalized`, answered without allocating: recipient search
 * asks this of every row while the admin types, so it must not build a string per row. Digits
 * are read from the end, where two different numbers usually differ first.
 */
export function hasNormalizedPhone(raw: string, normalized: string): boolean {
  if (normalized.length !== 12 || normalized.charCodeAt(0) !== PLUS) return false;
  if (normalized.charCodeAt(1) !== ONE) return false;
  // seen counts digits from the end: the first ten must be the number, then at most '1' or '01'.
  let seen = 0;
  for (let i = raw.length - 1; i >= 0; i--) {
    const c = raw.charCodeAt(i);
    if (c < ZERO || c > NINE) continue;
    if (seen < 10) {
      if (c !== normalized.charCodeAt(11 - seen)) return false;
    } else if (seen === 10) {
      if (c !== ONE) return false;
    } else if (seen !== 11 || c !== ZERO) {
      return false;
    }
    seen++;
  }
  return seen >= 10;
}
