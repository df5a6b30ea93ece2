// Identity's limits against guessing and abuse, counted in the database so that every process of a
// deployment shares them: one-time code guesses per account, wrong passwords per account (with a
// lock that grows) and per client address, and texts with a code per number, per address and in
// total. The settings are `identityLimits` in config.ts; docs/operations.md lists them.
import type { GatewayConfig } from '../config.js';
import type { Queryable } from '../storage/db.js';
import {
  clearCounters,
  hitCounter,
  readCounter,
  setCounter,
  sweepCounters,
} from '../storage/security-counters.js';
import { CognitoError } from './errors.js';

export type IdentityLimits = GatewayConfig['identityLimits'];

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** Who is calling: the client's address as the HTTP edge sees it (absent for internal calls). */
export interface Caller {
  ip?: string;
}

const attemptLimitExceeded = () =>
  new CognitoError('LimitExceededException', 'Attempt limit exceeded, please try after some time.');

const textLimitExceeded = () =>
  new CognitoError(
    'LimitExceededException',
    'Too many codes were requested; please try again after some time.',
  );

const passwordAttemptsExceeded = () =>
  new CognitoError('NotAuthorizedException', 'Password attempts exceeded');

export interface Limiter {
  /**
   * Counts one code attempt for `subject` (an account's username, or the number typed for an
   * unknown one) before the code is compared; past the limit it throws and no code works. Call
   * the answer when the code was right: a right code is not a wrong guess.
   */
  spendCodeGuess(subject: string): Promise<() => Promise<void>>;
  /** Throws while `subject` is locked or the caller's address has failed too often. */
  checkPassword(subject: string, caller: Caller): Promise<void>;
  /** Counts a wrong password; the Nth in a row locks `subject`, each lock in a day twice as long. */
  passwordFailed(subject: string, caller: Caller): Promise<void>;
  passwordSucceeded(subject: string): Promise<void>;
  /** Counts a text with a code to `phone` before it is sent; past any limit it throws. */
  spendCodeText(phone: string, caller: Caller): Promise<void>;
}

export function createLimiter(db: Queryable, limits: IdentityLimits, now: () => number): Limiter {
  let lastSweep = 0;
  async function hit(key: string, windowMs: number) {
    const at = now();
    if (at - lastSweep > HOUR) {
      lastSweep = at;
      await sweepCounters(db, at);
    }
    return hitCounter(db, key, windowMs, at);
  }

  return {
    async spendCodeGuess(subject) {
      const key = `code-guess:${subject}`;
      const { count } = await hit(key, HOUR);
      if (count > limits.codeGuessesPerHour) throw attemptLimitExceeded();
      return async () => {
        await hitCounter(db, key, HOUR, now(), -1);
      };
    },

    async checkPassword(subject, caller) {
      const at = now();
      if ((await readCounter(db, `password-lock:${subject}`, at)).count > 0) {
        throw passwordAttemptsExceeded();
      }
      if (caller.ip !== undefined) {
        const fromIp = await readCounter(db, `password-ip:${caller.ip}`, at);
        if (fromIp.count >= limits.passwordFailuresPerIpPerHour) throw attemptLimitExceeded();
      }
    },

    async passwordFailed(subject, caller) {
      if (caller.ip !== undefined) await hit(`password-ip:${caller.ip}`, HOUR);
      const failures = await hit(`password-failures:${subject}`, DAY);
      if (failures.count < limits.passwordFailuresBeforeLock) return;
      const level = await hit(`password-lock-level:${subject}`, DAY);
      const lockMs =
        Math.min(
          limits.passwordLockSeconds * 2 ** Math.min(level.count - 1, 30),
          limits.passwordLockMaxSeconds,
        ) * 1000;
      await setCounter(db, `password-lock:${subject}`, 1, now() + lockMs);
      await clearCounters(db, [`password-failures:${subject}`]);
    },

    async passwordSucceeded(subject) {
      await clearCounters(db, [`password-failures:${subject}`, `password-lock-level:${subject}`]);
    },

    async spendCodeText(phone, caller) {
      const perNumber = await hit(`code-text:number:${phone}`, HOUR);
      if (perNumber.count > limits.codesPerNumberPerHour) throw textLimitExceeded();
      if (caller.ip !== undefined) {
        const perIp = await hit(`code-text:ip:${caller.ip}`, HOUR);
        if (perIp.count > limits.codesPerIpPerHour) throw textLimitExceeded();
      }
      const total = await hit('code-text:total', HOUR);
      if (total.count > limits.codesPerHour) throw textLimitExceeded();
    },
  };
}
