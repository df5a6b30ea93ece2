// The sandbox delivery platform: sign-in with email and password and a one-time code sent to the
// driver's phone, offers published per service area that other (simulated) drivers take within
// seconds, per-account throttling and an occasional 5xx. Its state lives in the sandbox_* tables,
// so every gateway process on one database sees the same offers.
import {
  createHash,
  randomBytes,
  randomInt,
  randomUUID,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import { promisify } from 'node:util';
import type { Offer } from '@blockcatch/sdk';
import type { Db, Queryable } from '../storage/db.js';
import { SANDBOX_SERVICE_AREAS } from './service-areas.js';
import { createPollThrottle } from './throttle.js';
import {
  type AcceptOutcome,
  type DeliveryPlatform,
  PlatformError,
  type PlatformSession,
} from './types.js';

const scryptAsync = promisify(scrypt) as (p: string, s: Buffer, n: number) => Promise<Buffer>;
const CODE_TTL_MS = 5 * 60_000;
const MAX_CODE_ATTEMPTS = 5;
const QUARTER_HOUR = 15 * 60_000;

export interface SandboxPlatformOptions {
  /** Mean time between two published offers, across all areas; 0 turns the generator off. */
  offerIntervalMs: number;
  /** Other drivers take an offer this long after it appears (uniform between the two). */
  takenAfterMs: { min: number; max: number };
  /** Polls one account may make in a second before answering 429. 0 lifts the limit. */
  maxPollsPerSecond: number;
  retryAfterMs: number;
  /** Probability that a call answers 5xx. */
  failureRate: number;
  /** How stale the list of open offers may be when read from another process's writes. */
  snapshotMaxAgeMs: number;
  /** How long an access token works; its refresh token then trades it for a new one. */
  sessionTtlMs: number;
  /** Probability that a poll makes the platform ask the account for a check in its app. */
  verificationRate: number;
}

const DEFAULT_SANDBOX_OPTIONS: SandboxPlatformOptions = {
  offerIntervalMs: 5000,
  takenAfterMs: { min: 2000, max: 8000 },
  maxPollsPerSecond: 5,
  retryAfterMs: 2000,
  failureRate: 0.01,
  snapshotMaxAgeMs: 50,
  sessionTtlMs: 3_600_000,
  verificationRate: 0,
};

export interface NewOffer {
  serviceAreaId: string;
  startTime: number;
  endTime: number;
  pay: number;
  /** Defaults to a draw from `takenAfterMs`. */
  takenAfterMs?: number;
}

export interface SandboxPlatform extends DeliveryPlatform {
  /** Publishes an offer now (the generator's step; tests and the bench call it directly). */
  publishOffer(offer: NewOffer): Promise<Offer & { publishedAt: number }>;
  /**
   * The sandbox's switch for "the platform asks for a new code": the account's sessions end and
   * its refresh is refused with 'code-required' until the driver verifies a new one-time code.
   * Returns false when no account belongs to that phone number.
   */
  askForNewCode(phoneNumber: string): Promise<boolean>;
  /**
   * The sandbox's switch for "the platform asks for a check in its app": the account's polls
   * answer 'verification-required' until `completeVerification`. False when no account has that phone.
   */
  requireVerification(phoneNumber: string): Promise<boolean>;
  /** Stands for the driver completing the check in the platform's app. */
  completeVerification(phoneNumber: string): Promise<boolean>;
  /** The sandbox's switch for "the platform is down": every call answers 503 while it is on. */
  setOutage(down: boolean): void;
  /** Polls and throttled answers per account since start, for tests and the bench. */
  readonly stats: Map<string, { polls: number; throttled: number; failures: number }>;
}

interface OfferRow {
  id: string;
  created_ts: number;
  service_area_id: string;
  start_ts: number;
  end_ts: number;
  pay: number;
  taken_by_others_ts: number;
}

export function createSandboxPlatform(deps: {
  db: Db;
  /** Delivers the one-time code to the driver's phone (the message provider: the outbox). */
  sendCode(phoneNumber: string, text: string): Promise<void>;
  options?: Partial<SandboxPlatformOptions>;
  random?: () => number;
  now?: () => number;
}): SandboxPlatform {
  const { db } = deps;
  const options = { ...DEFAULT_SANDBOX_OPTIONS, ...deps.options };
  const random = deps.random ?? Math.random;
  const now = deps.now ?? Date.now;
  const throttle = createPollThrottle({
    perSecond: options.maxPollsPerSecond,
    retryAfterMs: options.retryAfterMs,
  });
  const stats: SandboxPlatform['stats'] = new Map();
  const listeners = new Set<() => void>();
  // Access-token hash → account and expiry; a session ended by askForNewCode is dropped here too.
  const sessions = new Map<string, { accountId: string; expiresAt: number }>();
  // Each poll and accept names its access token: hash each token once (a busy catcher asks for
  // thousands a second). Bounded: cleared when it grows past what one process ever holds.
  const tokenHashes = new Map<string, string>();
  const hashOf = (token: string) => {
    let hash = tokenHashes.get(token);
    if (hash === undefined) {
      if (tokenHashes.size >= 100_000) tokenHashes.clear();
      hash = sha256(token);
      tokenHashes.set(token, hash);
    }
    return hash;
  };
  let snapshot: { offers: (Offer & { closesAt: number })[]; fetchedAt: number } = {
    offers: [],
    fetchedAt: 0,
  };
  // Accounts asked for a check, reread with the offers: a poll costs no query for it either.
  let verifying = new Set<string>();
  let refreshing: Promise<void> | null = null;
  let generator: NodeJS.Timeout | null = null;
  let generating: Promise<void> | null = null;

  const statsOf = (accountId: string) => {
    let entry = stats.get(accountId);
    if (!entry) {
      entry = { polls: 0, throttled: 0, failures: 0 };
      stats.set(accountId, entry);
    }
    return entry;
  };

  let outage = false;
  const maybeFail = (accountId: string) => {
    if (outage || (options.failureRate > 0 && random() < options.failureRate)) {
      statsOf(accountId).failures++;
      throw new PlatformError('unavailable', 'The delivery platform answered 503.');
    }
  };

  // Every process keeps the open offers in memory and rereads them when older than
  // snapshotMaxAgeMs: a poll costs no query, and offers from other processes show up quickly.
  const openOffers = async () => {
    if (now() - snapshot.fetchedAt > options.snapshotMaxAgeMs) {
      refreshing ??= (async () => {
        const at = now();
        const rows = await db.query<OfferRow>(
          `SELECT id, service_area_id, start_ts, end_ts, pay, created_ts, taken_by_others_ts
           FROM sandbox_offers WHERE accepted_by IS NULL AND taken_by_others_ts > $1
           ORDER BY created_ts`,
          [at],
        );
        const asked = await db.query<{ account_id: string }>(
          'SELECT account_id FROM sandbox_platform_accounts WHERE verification_required',
        );
        snapshot = { offers: rows.map(toOffer), fetchedAt: at };
        verifying = new Set(asked.map((r) => r.account_id));
      })().finally(() => {
        refreshing = null;
      });
      await refreshing;
    }
    const at = now();
    return snapshot.offers.filter((offer) => offer.closesAt > at);
  };

  const accountOf = async (session: PlatformSession) => {
    const hash = hashOf(session.accessToken);
    let cached = sessions.get(hash);
    if (!cached) {
      const rows = await db.query<{ account_id: string; expires_ts: number | null }>(
        'SELECT account_id, expires_ts FROM sandbox_platform_sessions WHERE token_hash = $1',
        [hash],
      );
      const row = rows[0];
      if (!row || row.account_id !== session.accountId) {
        throw new PlatformError('unauthorized', 'The delivery platform session is not valid.');
      }
      cached = {
        accountId: row.account_id,
        expiresAt: row.expires_ts === null ? Number.POSITIVE_INFINITY : Number(row.expires_ts),
      };
      sessions.set(hash, cached);
    }
    if (cached.expiresAt <= now()) {
      sessions.delete(hash);
      throw new PlatformError('session-expired', 'The delivery platform session has expired.');
    }
    return cached.accountId;
  };

  const markVerifying = async (accountIds: readonly string[], required: boolean) => {
    await db.query(
      'UPDATE sandbox_platform_accounts SET verification_required = $2 WHERE account_id = ANY($1::text[])',
      [accountIds, required],
    );
    for (const id of accountIds) {
      if (required) verifying.add(id);
      else verifying.delete(id);
    }
  };

  const setVerification = async (phoneNumber: string, required: boolean) => {
    const rows = await db.query<{ account_id: string }>(
      'SELECT account_id FROM sandbox_platform_accounts WHERE phone_number = $1',
      [phoneNumber],
    );
    if (rows.length === 0) return false;
    await markVerifying(
      rows.map((r) => r.account_id),
      required,
    );
    return true;
  };

  const publishOffer = async (offer: NewOffer) => {
    const publishedAt = now();
    const takenAfter = Math.round(
      offer.takenAfterMs ??
        options.takenAfterMs.min + random() * (options.takenAfterMs.max - options.takenAfterMs.min),
    );
    const id = `so-${randomUUID()}`;
    await db.query(
      `INSERT INTO sandbox_offers (id, service_area_id, start_ts, end_ts, pay, created_ts, taken_by_others_ts)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        id,
        offer.serviceAreaId,
        offer.startTime,
        offer.endTime,
        offer.pay,
        publishedAt,
        publishedAt + takenAfter,
      ],
    );
    const published = {
      offerId: id,
      serviceAreaId: offer.serviceAreaId,
      startTime: offer.startTime,
      endTime: offer.endTime,
      pay: offer.pay,
      publishedAt,
      closesAt: publishedAt + takenAfter,
    };
    // This process's pollers see it without waiting for the next reread.
    snapshot = { offers: [...snapshot.offers, published], fetchedAt: snapshot.fetchedAt };
    for (const listener of listeners) listener();
    const { closesAt: _closesAt, ...visible } = published;
    return visible;
  };

  const generateOne = async () => {
    const area = SANDBOX_SERVICE_AREAS[Math.floor(random() * SANDBOX_SERVICE_AREAS.length)]!;
    const startTime =
      Math.ceil((now() + 30 * 60_000 + random() * 2 * 86_400_000) / QUARTER_HOUR) * QUARTER_HOUR;
    const hours = 2 + Math.floor(random() * 7) / 2;
    const pay = Math.round(hours * (18 + random() * 17) * 2) / 2;
    await publishOffer({
      serviceAreaId: area.id,
      startTime,
      endTime: startTime + hours * 3_600_000,
      pay,
    });
  };

  const scheduleGenerator = () => {
    // Exponential gaps: offers arrive as a Poisson stream at the configured mean rate. With several
    // processes on one database each publishes at that rate; the sandbox stays plausible either way.
    const gap = -Math.log(1 - random()) * options.offerIntervalMs;
    generator = setTimeout(() => {
      generating = generateOne()
        .catch(() => {})
        .finally(() => {
          generating = null;
          if (generator) scheduleGenerator();
        });
    }, gap);
    generator.unref();
  };

  return {
    name: 'sandbox',
    stats,
    publishOffer,
    setOutage(down) {
      outage = down;
    },

    async listServiceAreas() {
      return SANDBOX_SERVICE_AREAS.map((area) => ({ ...area }));
    },

    async signIn({ email, password, phoneNumber }) {
      const normalized = email.trim().toLowerCase();
      const existing = await db.query<{
        account_id: string;
        password_hash: string;
        phone_number: string;
      }>(
        'SELECT account_id, password_hash, phone_number FROM sandbox_platform_accounts WHERE email = $1',
        [normalized],
      );
      let account = existing[0];
      if (!account) {
        // The sandbox registers an unknown email on its first sign-in, so any driver can connect.
        const salt = randomBytes(16);
        const hash = await scryptAsync(password, salt, 32);
        account = {
          account_id: `acct-${randomUUID()}`,
          password_hash: `${salt.toString('base64')}:${hash.toString('base64')}`,
          phone_number: phoneNumber,
        };
        await db.query(
          `INSERT INTO sandbox_platform_accounts (account_id, email, password_hash, phone_number, created_ts)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT (email) DO NOTHING`,
          [account.account_id, normalized, account.password_hash, phoneNumber, now()],
        );
        const stored = await db.query<{
          account_id: string;
          password_hash: string;
          phone_number: string;
        }>(
          'SELECT account_id, password_hash, phone_number FROM sandbox_platform_accounts WHERE email = $1',
          [normalized],
        );
        account = stored[0]!;
      }
      const [salt = '', expected = ''] = account.password_hash.split(':');
      const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), 32);
      const expectedBytes = Buffer.from(expected, 'base64');
      if (expectedBytes.length !== actual.length || !timingSafeEqual(expectedBytes, actual)) {
        throw new PlatformError('invalid-credentials', 'Incorrect email or password.');
      }
      const challengeId = randomUUID();
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await db.query(
        `INSERT INTO sandbox_platform_challenges (id, account_id, code_hash, expires_ts)
         VALUES ($1, $2, $3, $4)`,
        [challengeId, account.account_id, sha256(code), now() + CODE_TTL_MS],
      );
      await deps.sendCode(account.phone_number, `Your delivery platform one-time code is ${code}`);
      return { challengeId };
    },

    async verifyOtp({ challengeId, code }) {
      const rows = await db.query<{
        account_id: string;
        code_hash: string;
        expires_ts: number;
        attempts: number;
        used: boolean;
      }>('SELECT * FROM sandbox_platform_challenges WHERE id = $1', [challengeId]);
      const challenge = rows[0];
      if (!challenge || challenge.used || challenge.attempts >= MAX_CODE_ATTEMPTS) {
        throw new PlatformError(
          'invalid-code',
          'This code can no longer be used: sign in again for a new one.',
        );
      }
      if (challenge.expires_ts < now()) {
        throw new PlatformError(
          'expired-code',
          'This code has expired: sign in again for a new one.',
        );
      }
      if (sha256(code) !== challenge.code_hash) {
        await db.query(
          'UPDATE sandbox_platform_challenges SET attempts = attempts + 1 WHERE id = $1',
          [challengeId],
        );
        throw new PlatformError('invalid-code', 'The code is not correct.');
      }
      const used = await db.query(
        'UPDATE sandbox_platform_challenges SET used = true WHERE id = $1 AND NOT used RETURNING id',
        [challengeId],
      );
      if (used.length === 0) {
        throw new PlatformError(
          'invalid-code',
          'This code can no longer be used: sign in again for a new one.',
        );
      }
      await db.query(
        'UPDATE sandbox_platform_accounts SET code_required = false WHERE account_id = $1',
        [challenge.account_id],
      );
      const [session] = await issueSessions(
        db,
        [challenge.account_id],
        now(),
        options.sessionTtlMs,
      );
      return session!;
    },

    async refreshSession(session) {
      const rows = await db.query<{ account_id: string; code_required: boolean }>(
        `DELETE FROM sandbox_platform_sessions s USING sandbox_platform_accounts a
         WHERE s.refresh_hash = $1 AND a.account_id = s.account_id AND s.account_id = $2
         RETURNING s.account_id, a.code_required`,
        [sha256(session.refreshToken ?? ''), session.accountId],
      );
      const row = rows[0];
      if (!row) {
        const [account] = await db.query<{ code_required: boolean }>(
          'SELECT code_required FROM sandbox_platform_accounts WHERE account_id = $1',
          [session.accountId],
        );
        if (account?.code_required) {
          throw new PlatformError('code-required', 'The delivery platform asks for a new code.');
        }
        throw new PlatformError('unauthorized', 'The delivery platform refused the refresh.');
      }
      sessions.delete(sha256(session.accessToken));
      const [fresh] = await issueSessions(db, [row.account_id], now(), options.sessionTtlMs);
      return fresh!;
    },

    async askForNewCode(phoneNumber) {
      const rows = await db.query<{ account_id: string }>(
        `UPDATE sandbox_platform_accounts SET code_required = true WHERE phone_number = $1
         RETURNING account_id`,
        [phoneNumber],
      );
      const ids = new Set(rows.map((r) => r.account_id));
      if (ids.size === 0) return false;
      await db.query('DELETE FROM sandbox_platform_sessions WHERE account_id = ANY($1::text[])', [
        [...ids],
      ]);
      for (const [hash, entry] of sessions) if (ids.has(entry.accountId)) sessions.delete(hash);
      return true;
    },

    requireVerification: (phoneNumber) => setVerification(phoneNumber, true),
    completeVerification: (phoneNumber) => setVerification(phoneNumber, false),

    async verificationPending(session) {
      const accountId = await accountOf(session);
      const [row] = await db.query<{ verification_required: boolean }>(
        'SELECT verification_required FROM sandbox_platform_accounts WHERE account_id = $1',
        [accountId],
      );
      const pending = row?.verification_required === true;
      if (pending) verifying.add(accountId);
      else verifying.delete(accountId);
      return pending;
    },

    async listOffers(session) {
      const accountId = await accountOf(session);
      const entry = statsOf(accountId);
      const wait = throttle.admit(accountId, now());
      if (wait > 0) {
        entry.throttled++;
        throw new PlatformError('throttled', 'The delivery platform answered 429.', wait);
      }
      entry.polls++;
      maybeFail(accountId);
      const open = await openOffers();
      if (!verifying.has(accountId) && options.verificationRate > 0) {
        if (random() < options.verificationRate) await markVerifying([accountId], true);
      }
      if (verifying.has(accountId)) {
        throw new PlatformError(
          'verification-required',
          "The delivery platform asks the driver to complete a check in the platform's app.",
        );
      }
      return open.map(({ closesAt: _closesAt, ...offer }) => offer);
    },

    async acceptOffer(session, offerId): Promise<AcceptOutcome> {
      const accountId = await accountOf(session);
      maybeFail(accountId);
      const at = now();
      const won = await db.query(
        `UPDATE sandbox_offers SET accepted_by = $1, accepted_ts = $2
         WHERE id = $3 AND accepted_by IS NULL AND taken_by_others_ts > $2 RETURNING id`,
        [accountId, at, offerId],
      );
      snapshot = {
        offers: snapshot.offers.filter((offer) => offer.offerId !== offerId),
        fetchedAt: snapshot.fetchedAt,
      };
      return won.length > 0 ? 'won' : 'gone';
    },

    async arrive(session) {
      const accountId = await accountOf(session);
      const at = now();
      const rows = await db.query<{ id: string }>(
        `UPDATE sandbox_offers SET arrived_ts = $2 WHERE id = (
           SELECT id FROM sandbox_offers WHERE accepted_by = $1 AND end_ts > $2
           ORDER BY start_ts LIMIT 1) RETURNING id`,
        [accountId, at],
      );
      return { offerId: rows[0]?.id ?? null };
    },

    onNewOffers(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    start() {
      if (options.offerIntervalMs > 0 && !generator) scheduleGenerator();
    },

    async stop() {
      if (generator) clearTimeout(generator);
      generator = null;
      // An offer being published when stop is called is stored and announced before stop
      // resolves: nothing is published after it, and no stored offer goes unannounced.
      await generating;
      listeners.clear();
      await refreshing?.catch(() => {});
    },
  };
}

/** Opens a session for each account, as a verified one-time code does. */
async function issueSessions(
  db: Queryable,
  accountIds: readonly string[],
  at: number,
  ttlMs: number,
): Promise<PlatformSession[]> {
  const sessions = accountIds.map((accountId) => ({
    accountId,
    accessToken: randomBytes(32).toString('base64url'),
    refreshToken: randomBytes(32).toString('base64url'),
    expiresAt: at + ttlMs,
  }));
  await db.query(
    `INSERT INTO sandbox_platform_sessions (token_hash, account_id, created_ts, refresh_hash, expires_ts)
     SELECT unnest($1::text[]), unnest($2::text[]), $3, unnest($4::text[]), $5`,
    [
      sessions.map((s) => sha256(s.accessToken)),
      accountIds,
      at,
      sessions.map((s) => sha256(s.refreshToken)),
      at + ttlMs,
    ],
  );
  return sessions;
}

/** The delivery-account password of every account `provisionSandboxAccounts` makes (public). */
const SANDBOX_DEMO_PASSWORD = 'Platform-pass-2026';

/**
 * Registers sandbox delivery accounts that are already signed in, as if each driver had given
 * their email and the texted code: seeding uses it so that a driver marked connected really is.
 * All share the public SANDBOX_DEMO_PASSWORD (one scrypt, not one per account). Runs in the
 * caller's transaction; the sandbox_* tables still belong to this module alone.
 */
export async function provisionSandboxAccounts(
  db: Queryable,
  accounts: readonly { email: string; phoneNumber: string }[],
  at: number,
): Promise<PlatformSession[]> {
  if (accounts.length === 0) return [];
  const salt = randomBytes(16);
  const hash = await scryptAsync(SANDBOX_DEMO_PASSWORD, salt, 32);
  const passwordHash = `${salt.toString('base64')}:${hash.toString('base64')}`;
  const ids = accounts.map(() => `acct-${randomUUID()}`);
  await db.query(
    `INSERT INTO sandbox_platform_accounts (account_id, email, password_hash, phone_number, created_ts)
     SELECT unnest($1::text[]), unnest($2::text[]), $3, unnest($4::text[]), $5`,
    [
      ids,
      accounts.map((a) => a.email.trim().toLowerCase()),
      passwordHash,
      accounts.map((a) => a.phoneNumber),
      at,
    ],
  );
  return issueSessions(db, ids, at, DEFAULT_SANDBOX_OPTIONS.sessionTtlMs);
}

function toOffer(row: OfferRow): Offer & { publishedAt: number; closesAt: number } {
  return {
    offerId: row.id,
    serviceAreaId: row.service_area_id,
    startTime: Number(row.start_ts),
    endTime: Number(row.end_ts),
    pay: Number(row.pay),
    publishedAt: Number(row.created_ts),
    closesAt: Number(row.taken_by_others_ts),
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}
