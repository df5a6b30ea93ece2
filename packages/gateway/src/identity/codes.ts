// Six-digit one-time codes: made, kept hashed, checked in constant time with an expiry, and
// guessed at most a few times per account per hour across all its codes (limits.ts).
import { createHash, randomInt } from 'node:crypto';
import {
  type CodePurpose,
  type CodeRecord,
  deleteCode,
  lockCode,
  putCode,
} from '../storage/accounts.js';
import type { Db, Queryable } from '../storage/db.js';
import { CognitoError } from './errors.js';
import type { Limiter } from './limits.js';
import { safeEqualHex } from './srp.js';

const CODE_LIFETIME_MS: Record<CodePurpose, number> = {
  sign_up: 24 * 3600_000,
  verify_phone: 24 * 3600_000,
  forgot_password: 3600_000,
  sms_mfa: 3 * 60_000,
};

const TEXT: Record<CodePurpose, (code: string) => string> = {
  sign_up: (code) => `Your BlockCatch verification code is ${code}`,
  verify_phone: (code) => `Your BlockCatch verification code is ${code}`,
  forgot_password: (code) => `Your BlockCatch password reset code is ${code}`,
  sms_mfa: (code) => `Your BlockCatch sign-in code is ${code}`,
};

// Keyed by account and purpose so equal codes never share a hash; the attempt limit, not the
// hash, is what stops guessing a six-digit space.
function hashCode(accountId: string, purpose: CodePurpose, code: string): string {
  return createHash('sha256').update(`${accountId}:${purpose}:${code}`).digest('hex');
}

/** Stores a fresh code (replacing the last one) and answers the SMS text that carries it. */
export async function issueCode(
  db: Queryable,
  accountId: string,
  purpose: CodePurpose,
  now: number,
  pendingPhone: string | null = null,
): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await putCode(
    db,
    accountId,
    purpose,
    hashCode(accountId, purpose, code),
    now + CODE_LIFETIME_MS[purpose],
    pendingPhone,
  );
  return TEXT[purpose](code);
}

export const codeMismatch = () =>
  new CognitoError(
    'CodeMismatchException',
    'Invalid verification code provided, please try again.',
  );

/**
 * Checks a code and, when it is right, consumes it and runs `onValid` in the same transaction.
 * The guess is counted against `subject` (the account's username) before the comparison, so
 * concurrent guesses in several processes cannot get past the limit.
 */
export async function redeemCode(
  db: Db,
  limiter: Limiter,
  input: { accountId: string; subject: string; purpose: CodePurpose; code: string; now: number },
  onValid: (tx: Queryable, code: CodeRecord) => Promise<void>,
): Promise<void> {
  const refund = await limiter.spendCodeGuess(input.subject);
  const outcome = await db.transaction(async (tx) => {
    const row = await lockCode(tx, input.accountId, input.purpose);
    if (!row) return 'missing' as const;
    if (row.expires_ts < input.now) return 'expired' as const;
    const given = hashCode(input.accountId, input.purpose, input.code.trim());
    if (!safeEqualHex(given, row.code_hash)) return 'mismatch' as const;
    await deleteCode(tx, input.accountId, input.purpose);
    await onValid(tx, row);
    return 'ok' as const;
  });
  if (outcome === 'ok') return refund();
  // No reset was asked for and a wrong reset code answer alike: either would tell a stranger
  // whether the number has an account.
  if (outcome === 'expired' || (outcome === 'missing' && input.purpose !== 'forgot_password')) {
    throw new CognitoError(
      'ExpiredCodeException',
      'Invalid code provided, please request a code again.',
    );
  }
  throw codeMismatch();
}
