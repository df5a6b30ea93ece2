// The forms' small checks: e-mail shape, integer input, identity pool ids.

/**
 * Some text, an @, some text, a dot, some text, and no whitespace anywhere (`^\S+@\S+\.\S+$`),
 * written so that each character has one way to match: the first @ after the first character,
 * then the first dot after the character that follows it. The plain form backtracks over every
 * @ and dot, cubic in the input's length.
 */
export const EMAIL_PATTERN = /^\S[^\s@]*@\S[^\s.]*\.\S+$/;
// The identity library's own check (amazon-cognito-identity-js CognitoUserPool), so an id that
// passes here is never refused when the pool is built from it.
const POOL_ID = /^[\w-]+_[0-9a-zA-Z]+$/;
const POOL_ID_MAX_LENGTH = 55;

/** Loose on purpose: some text, an @, some text, a dot, some text, and no whitespace anywhere. */
export function isEmail(s: string): boolean {
  return EMAIL_PATTERN.test(s);
}

/**
 * An integer read the way `parseInt(x, 10)` reads it, or '' when there is none, so a form field
 * can show the result as is. Strings: leading whitespace and sign are accepted and reading stops
 * at the first non-digit, so ' 42 ' is 42, '12.7' is 12, '1e3' is 1, '0x1A' is 0, and '', '  ',
 * 'abc' and '.5' are ''. Numbers are truncated toward zero (12.7 is 12, -12.7 is -12, -0 is 0)
 * rather than printed and re-read, so 1e21 stays 1e21; NaN and ±Infinity are ''.
 */
export function toInteger(x: string | number): number | '' {
  if (typeof x === 'number') return Number.isFinite(x) ? Math.trunc(x) + 0 : '';
  const n = Number.parseInt(x, 10);
  return Number.isNaN(n) ? '' : n + 0;
}

/** A user pool id: `region_id`, e.g. `us-east-1_AbCdEf123`, at most 55 characters. */
export function isIdentityPoolId(s: string): boolean {
  return s.length <= POOL_ID_MAX_LENGTH && POOL_ID.test(s);
}
