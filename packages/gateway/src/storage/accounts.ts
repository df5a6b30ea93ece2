// The identity tables: accounts with their SRP verifiers, one-time codes, pending sign-in
// challenges, refresh-token sessions and the shared token signing key.
import type { Queryable } from './db.js';

export type AccountStatus = 'UNCONFIRMED' | 'CONFIRMED' | 'FORCE_CHANGE_PASSWORD';

/** Cognito user attributes as stored; `sub` and `phone_number_verified` are derived, not kept here. */
export type AccountAttributes = Record<string, string>;

export interface AccountRecord {
  id: string;
  username: string;
  status: AccountStatus;
  salt: string;
  verifier: string;
  attributes: AccountAttributes;
  sms_mfa: boolean;
  created_ts: number;
  updated_ts: number;
}

export async function findAccountByUsername(
  db: Queryable,
  username: string,
): Promise<AccountRecord | null> {
  const rows = await db.query<AccountRecord>(
    'SELECT * FROM identity_accounts WHERE username = $1',
    [username],
  );
  return rows[0] ?? null;
}

export async function findAccountById(db: Queryable, id: string): Promise<AccountRecord | null> {
  const rows = await db.query<AccountRecord>('SELECT * FROM identity_accounts WHERE id = $1', [id]);
  return rows[0] ?? null;
}

/**
 * Whether a phone number is another account's username or phone attribute, or the number of a user
 * row (Flex or Spark) that is not `ownPhone`, the account's own row.
 */
export async function phoneInUse(
  db: Queryable,
  phone: string,
  exceptId: string,
  ownPhone?: string,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM identity_accounts
     WHERE id <> $2 AND (username = $1 OR attributes->>'phone_number' = $1)
     UNION ALL
     SELECT id FROM users WHERE phone_number = $1 AND phone_number IS DISTINCT FROM $3
     LIMIT 1`,
    [phone, exceptId, ownPhone ?? null],
  );
  return rows.length > 0;
}

/** Inserts the account; false when the username is taken (by another process too). */
export async function insertAccount(db: Queryable, account: AccountRecord): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO identity_accounts
       (id, username, status, salt, verifier, attributes, sms_mfa, created_ts, updated_ts)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (username) DO NOTHING RETURNING id`,
    [
      account.id,
      account.username,
      account.status,
      account.salt,
      account.verifier,
      JSON.stringify(account.attributes),
      account.sms_mfa,
      account.created_ts,
      account.updated_ts,
    ],
  );
  return rows.length > 0;
}

export type AccountPatch = Partial<
  Pick<AccountRecord, 'status' | 'salt' | 'verifier' | 'attributes' | 'sms_mfa'>
>;

export async function updateAccount(
  db: Queryable,
  id: string,
  patch: AccountPatch,
  now: number,
): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [id];
  for (const [column, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    params.push(column === 'attributes' ? JSON.stringify(value) : value);
    sets.push(`${column} = $${params.length}`);
  }
  params.push(now);
  sets.push(`updated_ts = $${params.length}`);
  await db.query(`UPDATE identity_accounts SET ${sets.join(', ')} WHERE id = $1`, params);
}

/** Deletes the account; its codes, challenges and sessions go with it (ON DELETE CASCADE). */
export async function deleteAccount(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM identity_accounts WHERE id = $1', [id]);
}

export type CodePurpose = 'sign_up' | 'forgot_password' | 'verify_phone' | 'sms_mfa';

export interface CodeRecord {
  code_hash: string;
  expires_ts: number;
  /** For `verify_phone`: the number the account moves to once the code is entered. */
  pending_phone: string | null;
}

/** Stores a new code for the purpose, replacing the last one (guesses are counted per account). */
export async function putCode(
  db: Queryable,
  accountId: string,
  purpose: CodePurpose,
  codeHash: string,
  expiresTs: number,
  pendingPhone: string | null = null,
): Promise<void> {
  await db.query(
    `INSERT INTO identity_codes (account_id, purpose, code_hash, expires_ts, pending_phone)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (account_id, purpose)
     DO UPDATE SET code_hash = EXCLUDED.code_hash, expires_ts = EXCLUDED.expires_ts,
       pending_phone = EXCLUDED.pending_phone`,
    [accountId, purpose, codeHash, expiresTs, pendingPhone],
  );
}

/** Reads the code under a row lock, so concurrent guesses count one by one. */
export async function lockCode(
  tx: Queryable,
  accountId: string,
  purpose: CodePurpose,
): Promise<CodeRecord | null> {
  const rows = await tx.query<CodeRecord>(
    `SELECT code_hash, expires_ts, pending_phone FROM identity_codes
     WHERE account_id = $1 AND purpose = $2 FOR UPDATE`,
    [accountId, purpose],
  );
  return rows[0] ?? null;
}

export async function deleteCode(
  tx: Queryable,
  accountId: string,
  purpose: CodePurpose,
): Promise<void> {
  await tx.query('DELETE FROM identity_codes WHERE account_id = $1 AND purpose = $2', [
    accountId,
    purpose,
  ]);
}

export type ChallengeKind = 'PASSWORD_VERIFIER' | 'SMS_MFA' | 'NEW_PASSWORD_REQUIRED';

export async function insertChallenge(
  db: Queryable,
  challenge: {
    tokenHash: string;
    /** Null for an unknown user's sign-in, which must look like any other. */
    accountId: string | null;
    kind: ChallengeKind;
    data: Record<string, string>;
    expiresTs: number;
  },
  now: number,
): Promise<void> {
  // Expired challenges are swept as new ones arrive, so the table stays small without a timer.
  await db.query('DELETE FROM identity_challenges WHERE expires_ts < $1', [now]);
  await db.query(
    `INSERT INTO identity_challenges (token_hash, account_id, kind, data, expires_ts)
     VALUES ($1, $2, $3, $4, $5)`,
    [
      challenge.tokenHash,
      challenge.accountId,
      challenge.kind,
      JSON.stringify(challenge.data),
      challenge.expiresTs,
    ],
  );
}

/** Reads a live challenge without using it up (an SMS_MFA session survives a mistyped code). */
export async function findChallenge(
  db: Queryable,
  tokenHash: string,
  kind: ChallengeKind,
  now: number,
): Promise<{ account_id: string; data: Record<string, string> } | null> {
  const rows = await db.query<{ account_id: string; data: Record<string, string> }>(
    `SELECT account_id, data FROM identity_challenges
     WHERE token_hash = $1 AND kind = $2 AND expires_ts >= $3`,
    [tokenHash, kind, now],
  );
  return rows[0] ?? null;
}

/** Removes and returns a live challenge: a challenge answers once, in whichever process. */
export async function takeChallenge(
  db: Queryable,
  tokenHash: string,
  kind: ChallengeKind,
  now: number,
): Promise<{ account_id: string | null; data: Record<string, string> } | null> {
  const rows = await db.query<{
    account_id: string | null;
    data: Record<string, string>;
    expires_ts: number;
  }>(
    `DELETE FROM identity_challenges WHERE token_hash = $1 AND kind = $2
     RETURNING account_id, data, expires_ts`,
    [tokenHash, kind],
  );
  const row = rows[0];
  return row && row.expires_ts >= now ? row : null;
}

export interface SessionRecord {
  id: string;
  account_id: string;
  refresh_hash: string;
  auth_time: number;
  created_ts: number;
  expires_ts: number;
  revoked_ts: number | null;
}

export async function insertSession(db: Queryable, session: SessionRecord): Promise<void> {
  await db.query(
    `INSERT INTO identity_sessions
       (id, account_id, refresh_hash, auth_time, created_ts, expires_ts, revoked_ts)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      session.id,
      session.account_id,
      session.refresh_hash,
      session.auth_time,
      session.created_ts,
      session.expires_ts,
      session.revoked_ts,
    ],
  );
}

export async function findSessionByRefreshHash(
  db: Queryable,
  refreshHash: string,
): Promise<SessionRecord | null> {
  const rows = await db.query<SessionRecord>(
    'SELECT * FROM identity_sessions WHERE refresh_hash = $1',
    [refreshHash],
  );
  return rows[0] ?? null;
}

/** Whether the session a token came from is still live and its account still exists. */
export async function findLiveSession(
  db: Queryable,
  sessionId: string,
  accountId: string,
): Promise<AccountRecord | null> {
  const rows = await db.query<AccountRecord>(
    `SELECT a.* FROM identity_sessions s JOIN identity_accounts a ON a.id = s.account_id
     WHERE s.id = $1 AND s.account_id = $2 AND s.revoked_ts IS NULL`,
    [sessionId, accountId],
  );
  return rows[0] ?? null;
}

export async function revokeSession(db: Queryable, id: string, now: number): Promise<void> {
  await db.query(
    'UPDATE identity_sessions SET revoked_ts = $2 WHERE id = $1 AND revoked_ts IS NULL',
    [id, now],
  );
}

export async function revokeAllSessions(
  db: Queryable,
  accountId: string,
  now: number,
): Promise<void> {
  await db.query(
    'UPDATE identity_sessions SET revoked_ts = $2 WHERE account_id = $1 AND revoked_ts IS NULL',
    [accountId, now],
  );
}

export interface SigningKeyRecord {
  kid: string;
  private_jwk: Record<string, unknown>;
  public_jwk: Record<string, unknown>;
}

const SIGNING_KEY_ID = 'primary';

export async function findSigningKey(db: Queryable): Promise<SigningKeyRecord | null> {
  const rows = await db.query<SigningKeyRecord>(
    'SELECT kid, private_jwk, public_jwk FROM identity_signing_keys WHERE id = $1',
    [SIGNING_KEY_ID],
  );
  return rows[0] ?? null;
}

/** Stores the key unless another process stored one first; either way answers the one kept. */
export async function insertSigningKey(
  db: Queryable,
  key: SigningKeyRecord,
  now: number,
): Promise<SigningKeyRecord> {
  await db.query(
    `INSERT INTO identity_signing_keys (id, kid, private_jwk, public_jwk, created_ts)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
    [SIGNING_KEY_ID, key.kid, JSON.stringify(key.private_jwk), JSON.stringify(key.public_jwk), now],
  );
  const kept = await findSigningKey(db);
  if (!kept) throw new Error('identity: the signing key vanished right after it was stored');
  return kept;
}

// The driver's app row (users table) follows its account: renamed, re-numbered and deleted with it.

export async function renameFlexUser(db: Queryable, phone: string, name: string): Promise<void> {
  await db.query("UPDATE users SET name = $2 WHERE product = 'flex' AND phone_number = $1", [
    phone,
    name,
  ]);
}

/** Moves the row to the new number unless a row already holds that number. */
export async function moveFlexUserPhone(db: Queryable, from: string, to: string): Promise<void> {
  await db.query(
    `UPDATE users SET phone_number = $2 WHERE product = 'flex' AND phone_number = $1
     AND NOT EXISTS (SELECT 1 FROM users WHERE product = 'flex' AND phone_number = $2)`,
    [from, to],
  );
}

export async function deleteFlexUser(db: Queryable, phone: string): Promise<void> {
  await db.query("DELETE FROM users WHERE product = 'flex' AND phone_number = $1", [phone]);
}
