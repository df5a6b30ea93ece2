// RS256 id and access tokens with Cognito's claims, signed with one key kept in the database so
// that every gateway process on it signs and verifies alike; plus the JWKS that publishes it.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  type CryptoKey,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from 'jose';
import { type AccountRecord, findSigningKey, insertSigningKey } from '../storage/accounts.js';
import type { Queryable } from '../storage/db.js';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
  /**
   * A secret every process derives alike from the private key: the seed of the fake salts that
   * unknown users get, so the same name always gets the same salt, on any process.
   */
  secretSeed: Buffer;
}

/** Loads the shared key, creating it when this is the first process on a fresh database. */
export async function loadSigningKey(db: Queryable, now: number): Promise<SigningKey> {
  let record = await findSigningKey(db);
  if (!record) {
    const pair = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
    const kid = randomUUID();
    const meta = { kid, alg: 'RS256', use: 'sig' };
    record = await insertSigningKey(
      db,
      {
        kid,
        private_jwk: { ...(await exportJWK(pair.privateKey)), ...meta },
        public_jwk: { ...(await exportJWK(pair.publicKey)), ...meta },
      },
      now,
    );
  }
  const publicJwk = record.public_jwk as JWK;
  return {
    kid: record.kid,
    privateKey: (await importJWK(record.private_jwk as JWK, 'RS256')) as CryptoKey,
    publicKey: (await importJWK(publicJwk, 'RS256')) as CryptoKey,
    publicJwk,
    secretSeed: createHash('sha256')
      .update(`fake-salt-seed:${String((record.private_jwk as JWK).d)}`)
      .digest(),
  };
}

export interface TokenSettings {
  issuer: string;
  clientId: string;
  /** Seconds an id or access token lives. */
  ttl: number;
}

export interface IssuedTokens {
  IdToken: string;
  AccessToken: string;
  ExpiresIn: number;
  TokenType: 'Bearer';
}

/** Cognito's attribute values are strings; the id token carries the verified flag as a boolean. */
export async function issueTokens(
  key: SigningKey,
  settings: TokenSettings,
  account: AccountRecord,
  session: { id: string; authTime: number },
  nowMs: number,
): Promise<IssuedTokens> {
  const iat = Math.floor(nowMs / 1000);
  const exp = iat + settings.ttl;
  const eventId = randomUUID();
  const sign = (payload: JWTPayload) =>
    new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setIssuer(settings.issuer)
      .setSubject(account.id)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(randomUUID())
      .sign(key.privateKey);
  const { phone_number_verified, ...attributes } = account.attributes;
  const IdToken = await sign({
    ...attributes,
    phone_number_verified: phone_number_verified === 'true',
    aud: settings.clientId,
    'cognito:username': account.username,
    origin_jti: session.id,
    event_id: eventId,
    token_use: 'id',
    auth_time: session.authTime,
  });
  const AccessToken = await sign({
    client_id: settings.clientId,
    origin_jti: session.id,
    event_id: eventId,
    token_use: 'access',
    scope: 'aws.cognito.signin.user.admin',
    auth_time: session.authTime,
    username: account.username,
  });
  return { IdToken, AccessToken, ExpiresIn: settings.ttl, TokenType: 'Bearer' };
}

export type TokenFailure = 'expired' | 'invalid';

/**
 * Verifies signature (RS256 with our key only: `alg: none` and foreign keys fail), issuer, expiry,
 * `token_use` and the client; answers the payload, or why it was refused.
 */
export async function verifyToken(
  key: SigningKey,
  settings: TokenSettings,
  token: string,
  use: 'id' | 'access',
  nowMs: number,
): Promise<{ ok: true; payload: JWTPayload } | { ok: false; failure: TokenFailure }> {
  try {
    const { payload, protectedHeader } = await jwtVerify(token, key.publicKey, {
      algorithms: ['RS256'],
      issuer: settings.issuer,
      currentDate: new Date(nowMs),
      ...(use === 'id' ? { audience: settings.clientId } : {}),
    });
    const ok =
      protectedHeader.kid === key.kid &&
      payload.token_use === use &&
      typeof payload.sub === 'string' &&
      typeof payload.origin_jti === 'string' &&
      (use === 'id' || payload.client_id === settings.clientId);
    return ok ? { ok: true, payload } : { ok: false, failure: 'invalid' };
  } catch (error) {
    return { ok: false, failure: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}

/** Opaque refresh tokens: random, and kept only as their SHA-256. */
export function newRefreshToken(): string {
  return randomBytes(48).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
