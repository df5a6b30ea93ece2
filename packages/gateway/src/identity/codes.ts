// Six-digit one-time codes: made, kept hashed, checked with an expiry and an attempt limit.
import { createHash, randomInt } from 'node:crypto';
import {
  type CodePurpose,
  countFailedAttempt,
  deleteCode,
  lockCode,
  putCode,
} from '../storage/accounts.js';
import type { Db, Queryable } from '../storage/db.js';
import { CognitoError } from './errors.js';
import { safeEqualHex } from './srp.js';

/** After this many wrong guesses the code is dead, whatever comes next. */
export const MAX_FAILED_ATTEMPTS = 5;

export const CODE_LIFETIME_MS: Record<CodePurpose, number> = {
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
): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await putCode(
    db,
    accountId,
    purpose,
    hashCode(accountId, purpose, code),
    now + CODE_LIFETIME_MS[purpose],
  );
  return TEXT[purpose](code);
}

/**
 * Checks a code and, when it is right, consumes it and runs `onValid` in the same transaction.
 * A wrong guess is counted even though the call fails, so the throw happens after the commit.
 */
export async function redeemCode(
  db: Db,
  input: { accountId: string; purpose: CodePurpose; code: string; now: number },
  onValid: (tx: Queryable) => Promise<void>,
): Promise<void> {
  const outcome = await db.transaction(async (tx) => {
    const row = await lockCode(tx, input.accountId, input.purpose);
    if (!row) return 'expired' as const;
    if (row.failed_attempts >= MAX_FAILED_ATTEMPTS) return 'limit' as const;
    if (row.expires_ts < input.now) return 'expired' as const;
    const given = hashCode(input.accountId, input.purpose, input.code.trim());
    if (!safeEqualHex(given, row.code_hash)) {
      await countFailedAttempt(tx, input.accountId, input.purpose);
      return 'mismatch' as const;
    }
    await deleteCode(tx, input.accountId, input.purpose);
    await onValid(tx);
    return 'ok' as const;
  });
  if (outcome === 'limit') {
    throw new CognitoError(
      'LimitExceededException',
      'Attempt limit exceeded, please try after some time.',
    );
  }
  if (outcome === 'expired') {
    throw new CognitoError(
      'ExpiredCodeException',
      'Invalid code provided, please request a code again.',
    );
  }
  if (outcome === 'mismatch') {
    throw new CognitoError(
      'CodeMismatchException',
      'Invalid verification code provided, please try again.',
    );
  }
}
