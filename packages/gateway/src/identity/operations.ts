// The user-pool operations, one function per Cognito API action, over the identity tables.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import {
  isReferralCode,
  MARKETING_CONSENT_ATTRIBUTE,
  MARKETING_CONSENT_VERSION,
  NAME_PROBLEM_MESSAGES,
  nameProblem,
  normalizePhone,
  normalizeReferralCode,
  parseMarketingConsentAttribute,
  REFERRAL_ATTRIBUTE,
  REFERRAL_CODE_LENGTH,
} from '@blockcatch/sdk';
import type { z } from 'zod';
import { consentWords } from '../consent/texts.js';
import { describeZodError, quote } from '../http/errors.js';
import {
  type AccountAttributes,
  type AccountRecord,
  type ChallengeKind,
  deleteAccount,
  deleteFlexUser,
  findAccountById,
  findAccountByUsername,
  findChallenge,
  findLiveSession,
  findSessionByRefreshHash,
  insertAccount,
  insertChallenge,
  insertSession,
  moveFlexUserPhone,
  phoneInUse,
  renameFlexUser,
  revokeAllSessions,
  revokeSession,
  takeChallenge,
  updateAccount,
} from '../storage/accounts.js';
import type { Db } from '../storage/db.js';
import { recordConsent } from '../storage/marketing-consent.js';
import { insertUsers } from '../storage/users.js';
import { codeMismatch, issueCode, redeemCode } from './codes.js';
import { CognitoError, incorrectPassword, invalidParameter, userNotFound } from './errors.js';
import type { Caller, Limiter } from './limits.js';
import * as protocol from './protocol.js';
import {
  claimSignature,
  createVerifier,
  padHex,
  parseClientPublic,
  parseSrpTimestamp,
  passwordMatches,
  safeEqual,
  serverEphemeral,
  sessionKey,
  verifierFor,
} from './srp.js';
import {
  hashSecret,
  type IssuedTokens,
  issueTokens,
  newRefreshToken,
  type SigningKey,
  type TokenSettings,
  verifyToken,
} from './tokens.js';
import type { CodeSender } from './types.js';

export interface PoolContext {
  db: Db;
  key: SigningKey;
  tokens: TokenSettings;
  /** The part of the user pool id after '_': SRP mixes it into every password hash. */
  poolName: string;
  sendCode: CodeSender;
  limits: Limiter;
  now: () => number;
  /** Told of every new session (not a refresh) with its id token and the caller's address. */
  onSignIn?: ((idToken: string, ip: string) => Promise<void>) | undefined;
}

export type Operation = (
  ctx: PoolContext,
  body: unknown,
  caller: Caller,
) => Promise<Record<string, unknown>>;

const MIN_PASSWORD = 8;
const MAX_PASSWORD = 256;
const CHALLENGE_LIFETIME_MS = 3 * 60_000;
const REFRESH_LIFETIME_MS = 30 * 24 * 3600_000;
// The client stamps its own clock into the signature; allow for drift between the two clocks.
const TIMESTAMP_TOLERANCE_MS = 15 * 60_000;

/** Attributes a user may write; `sub` and `phone_number_verified` belong to the pool. */
const WRITABLE = new Set([
  'name',
  'phone_number',
  'email',
  'locale',
  'given_name',
  'family_name',
  'nickname',
  'zoneinfo',
]);
const REQUIRED = new Set(['name', 'phone_number']);
/** Attributes that hold a person's name, checked by the SDK's name rule. */
const NAME_ATTRIBUTES = ['name', 'given_name', 'family_name', 'nickname'] as const;

function parse<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw invalidParameter(describeZodError(result.error));
  return result.data;
}

function checkClient(ctx: PoolContext, clientId: string): void {
  if (clientId !== ctx.tokens.clientId) {
    throw new CognitoError(
      'ResourceNotFoundException',
      `User pool client ${quote(clientId)} does not exist.`,
    );
  }
}

function checkPasswordPolicy(password: string, field = 'Password'): void {
  if (password.length < MIN_PASSWORD) {
    throw new CognitoError(
      'InvalidPasswordException',
      'Password did not conform with policy: Password not long enough',
    );
  }
  if (password.length > MAX_PASSWORD) {
    throw invalidParameter(`${field}: must be at most ${MAX_PASSWORD} characters.`);
  }
}

function phoneUsername(raw: string, field = 'Username'): string {
  const phone = normalizePhone(raw);
  if (!phone) {
    throw invalidParameter(
      `${field}: ${quote(raw)} is not a US phone number; give 10 digits, e.g. +15551234567.`,
    );
  }
  return phone;
}

/** What limits count a name under: its canonical number, or the name as typed when it is not one. */
function subjectOf(raw: string): string {
  return normalizePhone(raw) ?? raw.trim().toLowerCase().slice(0, 64);
}

/**
 * An unknown user's salt and verifier: derived from the name and a server secret, so asking twice
 * gives the same salt (as for a real account) and the SRP exchange costs the same.
 */
function standInVerifier(ctx: PoolContext, username: string): { salt: string; verifier: string } {
  const mac = (what: string) =>
    createHmac('sha256', ctx.key.secretSeed).update(`${what}:${username}`).digest('hex');
  const salt = padHex(BigInt(`0x${mac('salt').slice(0, 32)}`));
  return { salt, verifier: verifierFor(ctx.poolName, username, mac('password'), salt) };
}

/** The account a sign-in or code names; unknown and malformed names answer alike. */
async function accountNamed(ctx: PoolContext, raw: string): Promise<AccountRecord | null> {
  const phone = normalizePhone(raw);
  return phone ? findAccountByUsername(ctx.db, phone) : null;
}

function maskPhone(phone: string): string {
  return `+${'*'.repeat(Math.max(phone.length - 5, 0))}${phone.slice(-4)}`;
}

function delivery(phone: string) {
  return { AttributeName: 'phone_number', DeliveryMedium: 'SMS', Destination: maskPhone(phone) };
}

function phoneOf(account: AccountRecord): string {
  return account.attributes.phone_number ?? account.username;
}

/** Checks written attributes against the schema; answers them by name, phone normalised. */
function writableAttributes(list: { Name: string; Value: string }[]): AccountAttributes {
  const out: AccountAttributes = {};
  for (const { Name, Value } of list) {
    if (!WRITABLE.has(Name) && !Name.startsWith('custom:')) {
      throw invalidParameter(
        `Attributes did not conform to the schema: ${quote(Name)}: Attribute does not exist in the schema.`,
      );
    }
    if (Value.length > 2048) throw invalidParameter(`${Name}: must be at most 2048 characters.`);
    out[Name] = Name === 'phone_number' ? phoneUsername(Value, 'phone_number') : Value;
  }
  // Names are shown to admins, exported to spreadsheets and (the first name) texted to strangers.
  for (const field of NAME_ATTRIBUTES) {
    const value = out[field];
    const problem = value === undefined ? null : nameProblem(value);
    if (problem) throw invalidParameter(`${field}: ${NAME_PROBLEM_MESSAGES[problem]}`);
  }
  return out;
}

// --- sign-up and confirmation ---------------------------------------------------------------

/**
 * The inviting driver's referral code from an invitation link (`/register?ref=`), upper-cased; a
 * code that cannot be one is refused, naming the attribute, rather than silently dropped.
 */
function signUpReferral(value: string | undefined): string | undefined {
  const code = normalizeReferralCode(value ?? '');
  if (!code) return undefined;
  if (!isReferralCode(code)) {
    throw invalidParameter(
      `${REFERRAL_ATTRIBUTE}: a referral code is ${REFERRAL_CODE_LENGTH} letters and digits, e.g. 7KQ2XW; check the invitation link or leave it empty.`,
    );
  }
  return code;
}

/**
 * The marketing box from the sign-up form (`version:language`); a value this gateway does not know
 * is refused, naming the attribute, so no consent is recorded with words nobody was shown.
 */
function signUpConsent(value: string | undefined) {
  if (value === undefined || value === '') return null;
  const consent = parseMarketingConsentAttribute(value);
  if (!consent) {
    throw invalidParameter(
      `${MARKETING_CONSENT_ATTRIBUTE}: must be ${MARKETING_CONSENT_VERSION}:en or ${MARKETING_CONSENT_VERSION}:es (the version of the box's text and its language); reload the sign-up page and try again.`,
    );
  }
  return consent;
}

const signUp: Operation = async (ctx, body, caller) => {
  const input = parse(protocol.signUpBody, body);
  checkClient(ctx, input.ClientId);
  const username = phoneUsername(input.Username);
  const attributes = writableAttributes(input.UserAttributes ?? []);
  if (attributes.phone_number !== undefined && attributes.phone_number !== username) {
    throw invalidParameter('phone_number: must be the same number as Username.');
  }
  if (!attributes.name) {
    throw invalidParameter(
      'Attributes did not conform to the schema: name: The attribute is required',
    );
  }
  checkPasswordPolicy(input.Password);
  const referral = signUpReferral(attributes[REFERRAL_ATTRIBUTE]);
  const consent = signUpConsent(attributes[MARKETING_CONSENT_ATTRIBUTE]);
  if (await findAccountByUsername(ctx.db, username)) {
    throw new CognitoError(
      'UsernameExistsException',
      'An account with the given phone_number already exists.',
    );
  }
  await ctx.limits.spendCodeText(username, caller);
  const now = ctx.now();
  const account: AccountRecord = {
    id: randomUUID(),
    username,
    status: 'UNCONFIRMED',
    ...createVerifier(ctx.poolName, username, input.Password),
    attributes: { ...attributes, phone_number: username, phone_number_verified: 'false' },
    sms_mfa: false,
    created_ts: now,
    updated_ts: now,
  };
  const text = await ctx.db.transaction(async (tx) => {
    if (!(await insertAccount(tx, account))) {
      throw new CognitoError(
        'UsernameExistsException',
        'An account with the given phone_number already exists.',
      );
    }
    await insertUsers(tx, [
      {
        product: 'flex',
        phone_number: username,
        name: attributes.name!,
        create_date_ts: now,
        referral: referral ?? null,
      },
    ]);
    // The marketing box, asked apart from the terms: recorded only when it was ticked.
    if (consent) {
      await recordConsent(tx, {
        phoneNumber: username,
        consented: true,
        method: 'sign-up',
        textVersion: consent.version,
        words: consentWords('sign-up', consent.language),
        now,
      });
    }
    return issueCode(tx, account.id, 'sign_up', now);
  });
  // Sent after the commit: the message provider writes through its own connection.
  await ctx.sendCode(username, text);
  return { UserConfirmed: false, UserSub: account.id, CodeDeliveryDetails: delivery(username) };
};

const confirmSignUp: Operation = async (ctx, body) => {
  const input = parse(protocol.confirmSignUpBody, body);
  checkClient(ctx, input.ClientId);
  const account = await accountNamed(ctx, input.Username);
  if (!account) throw userNotFound();
  if (account.status !== 'UNCONFIRMED') {
    throw new CognitoError(
      'NotAuthorizedException',
      `User cannot be confirmed. Current status is ${account.status}`,
    );
  }
  const now = ctx.now();
  await redeemCode(
    ctx.db,
    ctx.limits,
    {
      accountId: account.id,
      subject: account.username,
      purpose: 'sign_up',
      code: input.ConfirmationCode,
      now,
    },
    (tx) =>
      updateAccount(
        tx,
        account.id,
        {
          status: 'CONFIRMED',
          attributes: { ...account.attributes, phone_number_verified: 'true' },
        },
        now,
      ),
  );
  return {};
};

const resendConfirmationCode: Operation = async (ctx, body, caller) => {
  const input = parse(protocol.usernameBody, body);
  checkClient(ctx, input.ClientId);
  const account = await accountNamed(ctx, input.Username);
  if (!account) throw userNotFound();
  if (account.status !== 'UNCONFIRMED') throw invalidParameter('User is already confirmed.');
  await ctx.limits.spendCodeText(phoneOf(account), caller);
  const text = await issueCode(ctx.db, account.id, 'sign_up', ctx.now());
  await ctx.sendCode(phoneOf(account), text);
  return { CodeDeliveryDetails: delivery(phoneOf(account)) };
};

// --- sign-in --------------------------------------------------------------------------------

async function openSession(ctx: PoolContext, account: AccountRecord) {
  const now = ctx.now();
  const refreshToken = newRefreshToken();
  const session = { id: randomUUID(), authTime: Math.floor(now / 1000) };
  await insertSession(ctx.db, {
    id: session.id,
    account_id: account.id,
    refresh_hash: hashSecret(refreshToken),
    auth_time: session.authTime,
    created_ts: now,
    expires_ts: now + REFRESH_LIFETIME_MS,
    revoked_ts: null,
  });
  const tokens: IssuedTokens = await issueTokens(ctx.key, ctx.tokens, account, session, now);
  return {
    AuthenticationResult: { ...tokens, RefreshToken: refreshToken },
    ChallengeParameters: {},
  };
}

async function openChallenge(
  ctx: PoolContext,
  account: AccountRecord | null,
  kind: ChallengeKind,
  data: Record<string, string> = {},
): Promise<string> {
  const token = randomBytes(48).toString('base64');
  const now = ctx.now();
  await insertChallenge(
    ctx.db,
    {
      tokenHash: hashSecret(token),
      accountId: account?.id ?? null,
      kind,
      data,
      expiresTs: now + CHALLENGE_LIFETIME_MS,
    },
    now,
  );
  return token;
}

function publicAttributes(account: AccountRecord): Record<string, string> {
  return { sub: account.id, ...account.attributes };
}

/** What follows a proven password: not confirmed, a forced new password, SMS MFA, or tokens. */
async function afterPassword(
  ctx: PoolContext,
  account: AccountRecord,
  caller: Caller,
  options: { passwordJustSet?: boolean } = {},
) {
  if (account.status === 'UNCONFIRMED') {
    throw new CognitoError('UserNotConfirmedException', 'User is not confirmed.');
  }
  if (account.status === 'FORCE_CHANGE_PASSWORD' && !options.passwordJustSet) {
    const { phone_number_verified: _verified, ...attributes } = account.attributes;
    return {
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      Session: await openChallenge(ctx, account, 'NEW_PASSWORD_REQUIRED'),
      ChallengeParameters: {
        USER_ID_FOR_SRP: account.username,
        requiredAttributes: '[]',
        userAttributes: JSON.stringify(attributes),
      },
    };
  }
  if (account.sms_mfa) {
    await ctx.limits.spendCodeText(phoneOf(account), caller);
    const text = await issueCode(ctx.db, account.id, 'sms_mfa', ctx.now());
    const session = await openChallenge(ctx, account, 'SMS_MFA');
    await ctx.sendCode(phoneOf(account), text);
    return {
      ChallengeName: 'SMS_MFA',
      Session: session,
      ChallengeParameters: {
        CODE_DELIVERY_DELIVERY_MEDIUM: 'SMS',
        CODE_DELIVERY_DESTINATION: maskPhone(phoneOf(account)),
        USER_ID_FOR_SRP: account.username,
      },
    };
  }
  return openSession(ctx, account);
}

const initiateAuth: Operation = async (ctx, body, caller) => {
  const input = parse(protocol.initiateAuthBody, body);
  checkClient(ctx, input.ClientId);
  const params = input.AuthParameters ?? {};
  switch (input.AuthFlow) {
    case 'USER_SRP_AUTH':
      return startSrp(ctx, params.USERNAME, params.SRP_A);
    case 'USER_PASSWORD_AUTH':
      return passwordSignIn(ctx, caller, params.USERNAME, params.PASSWORD);
    case 'REFRESH_TOKEN_AUTH':
    case 'REFRESH_TOKEN':
      return refresh(ctx, params.REFRESH_TOKEN);
    default:
      throw invalidParameter(
        `AuthFlow: ${quote(input.AuthFlow)} is not enabled for this client; use USER_SRP_AUTH, USER_PASSWORD_AUTH or REFRESH_TOKEN_AUTH.`,
      );
  }
};

async function startSrp(ctx: PoolContext, username?: string | null, srpA?: string | null) {
  if (!username) throw invalidParameter('USERNAME parameter is required');
  if (!srpA) throw invalidParameter('SRP_A parameter is required');
  const A = parseClientPublic(srpA);
  if (A === null) throw invalidParameter('SRP_A: must be a hex number that is not 0 mod N.');
  const account = await accountNamed(ctx, username);
  // An unknown user gets a challenge like anyone's, from a stable fake salt; answering it fails
  // like a wrong password, so the exchange never tells whether the number has an account.
  const name = account?.username ?? normalizePhone(username) ?? username;
  const { salt, verifier } = account ?? standInVerifier(ctx, name);
  const { b, B } = serverEphemeral(verifier);
  // The secret block is the handle of this exchange: random, opaque, stored hashed with b.
  const secretBlock = await openChallenge(ctx, account, 'PASSWORD_VERIFIER', {
    A: padHex(A),
    B: padHex(B),
    b: padHex(b),
    username: name,
  });
  return {
    ChallengeName: 'PASSWORD_VERIFIER',
    ChallengeParameters: {
      SALT: salt,
      SECRET_BLOCK: secretBlock,
      SRP_B: B.toString(16),
      USERNAME: name,
      USER_ID_FOR_SRP: name,
    },
  };
}

async function passwordSignIn(
  ctx: PoolContext,
  caller: Caller,
  username?: string | null,
  password?: string | null,
) {
  if (!username) throw invalidParameter('USERNAME parameter is required');
  if (!password) throw invalidParameter('PASSWORD parameter is required');
  const subject = subjectOf(username);
  await ctx.limits.checkPassword(subject, caller);
  const account = await accountNamed(ctx, username);
  // An unknown user's password is checked against a stand-in, so both cost the same time.
  const stored = account ?? standInVerifier(ctx, subject);
  const matches = passwordMatches(ctx.poolName, account?.username ?? subject, password, stored);
  if (!account || !matches) {
    await ctx.limits.passwordFailed(subject, caller);
    throw incorrectPassword();
  }
  await ctx.limits.passwordSucceeded(subject);
  return afterPassword(ctx, account, caller);
}

async function refresh(ctx: PoolContext, refreshToken?: string | null) {
  if (!refreshToken) throw invalidParameter('REFRESH_TOKEN parameter is required');
  const session = await findSessionByRefreshHash(ctx.db, hashSecret(refreshToken));
  const now = ctx.now();
  if (!session) throw new CognitoError('NotAuthorizedException', 'Invalid Refresh Token');
  if (session.revoked_ts !== null) {
    throw new CognitoError('NotAuthorizedException', 'Refresh Token has been revoked');
  }
  if (session.expires_ts < now) {
    throw new CognitoError('NotAuthorizedException', 'Refresh Token has expired');
  }
  const account = await findAccountById(ctx.db, session.account_id);
  if (!account) throw new CognitoError('NotAuthorizedException', 'Invalid Refresh Token');
  const tokens = await issueTokens(
    ctx.key,
    ctx.tokens,
    account,
    { id: session.id, authTime: session.auth_time },
    now,
  );
  // Like Cognito, the refresh token is not rotated: the client keeps the one it has.
  return { AuthenticationResult: tokens, ChallengeParameters: {} };
}

const respondToAuthChallenge: Operation = async (ctx, body, caller) => {
  const input = parse(protocol.respondToAuthChallengeBody, body);
  checkClient(ctx, input.ClientId);
  const responses = input.ChallengeResponses ?? {};
  switch (input.ChallengeName) {
    case 'PASSWORD_VERIFIER':
      return verifyPasswordClaim(ctx, caller, responses);
    case 'NEW_PASSWORD_REQUIRED':
      return setRequiredPassword(ctx, caller, input.Session, responses);
    case 'SMS_MFA':
      return checkMfaCode(ctx, input.Session, responses);
    default:
      throw invalidParameter(
        `ChallengeName: ${quote(input.ChallengeName)} is not used by this pool; answer PASSWORD_VERIFIER, NEW_PASSWORD_REQUIRED or SMS_MFA.`,
      );
  }
};

const expiredSession = () =>
  new CognitoError('NotAuthorizedException', 'Invalid session for the user, session is expired.');

async function verifyPasswordClaim(
  ctx: PoolContext,
  caller: Caller,
  r: Record<string, string | null | undefined>,
) {
  const secretBlock = r.PASSWORD_CLAIM_SECRET_BLOCK;
  const signature = r.PASSWORD_CLAIM_SIGNATURE;
  const timestamp = r.TIMESTAMP;
  if (!secretBlock) throw invalidParameter('PASSWORD_CLAIM_SECRET_BLOCK is required');
  if (!signature) throw invalidParameter('PASSWORD_CLAIM_SIGNATURE is required');
  if (!timestamp) throw invalidParameter('TIMESTAMP is required');
  const stamped = parseSrpTimestamp(timestamp);
  if (stamped === null) {
    throw invalidParameter(
      `TIMESTAMP: ${quote(timestamp)} is not like 'Mon Nov 23 03:40:00 UTC 2026'.`,
    );
  }
  const now = ctx.now();
  const challenge = await takeChallenge(ctx.db, hashSecret(secretBlock), 'PASSWORD_VERIFIER', now);
  if (!challenge) throw expiredSession();
  const account = challenge.account_id ? await findAccountById(ctx.db, challenge.account_id) : null;
  const name = account?.username ?? challenge.data.username ?? '';
  const subject = subjectOf(name);
  // Locked: refused before the proof is even looked at, the right password included.
  await ctx.limits.checkPassword(subject, caller);
  if (Math.abs(stamped - now) > TIMESTAMP_TOLERANCE_MS) {
    throw new CognitoError('NotAuthorizedException', 'TIMESTAMP is too far from the server time.');
  }
  const { A, B, b } = challenge.data;
  const key = sessionKey({
    A: BigInt(`0x${A}`),
    B: BigInt(`0x${B}`),
    b: BigInt(`0x${b}`),
    verifierHex: (account ?? standInVerifier(ctx, name)).verifier,
  });
  const expected = key
    ? claimSignature({
        key,
        poolName: ctx.poolName,
        userIdForSrp: name,
        secretBlock,
        timestamp,
      })
    : '';
  if (!safeEqual(Buffer.from(expected, 'base64'), Buffer.from(signature, 'base64')) || !account) {
    await ctx.limits.passwordFailed(subject, caller);
    throw incorrectPassword();
  }
  await ctx.limits.passwordSucceeded(subject);
  return afterPassword(ctx, account, caller);
}

async function setRequiredPassword(
  ctx: PoolContext,
  caller: Caller,
  session: string | null | undefined,
  r: Record<string, string | null | undefined>,
) {
  const password = r.NEW_PASSWORD;
  if (!password) throw invalidParameter('New password is required.');
  checkPasswordPolicy(password, 'NEW_PASSWORD');
  const written: { Name: string; Value: string }[] = [];
  for (const [name, value] of Object.entries(r)) {
    if (name.startsWith('userAttributes.') && typeof value === 'string') {
      written.push({ Name: name.slice('userAttributes.'.length), Value: value });
    }
  }
  const attributes = writableAttributes(written);
  delete attributes.phone_number;
  if (!session) throw invalidParameter('Session is required');
  const now = ctx.now();
  const challenge = await takeChallenge(ctx.db, hashSecret(session), 'NEW_PASSWORD_REQUIRED', now);
  if (!challenge?.account_id) throw expiredSession();
  const account = await findAccountById(ctx.db, challenge.account_id);
  if (!account) throw expiredSession();
  const updated: AccountRecord = {
    ...account,
    ...createVerifier(ctx.poolName, account.username, password),
    status: 'CONFIRMED',
    attributes: { ...account.attributes, ...attributes },
  };
  await ctx.db.transaction(async (tx) => {
    await updateAccount(
      tx,
      account.id,
      {
        status: updated.status,
        salt: updated.salt,
        verifier: updated.verifier,
        attributes: updated.attributes,
      },
      now,
    );
    if (attributes.name) await renameFlexUser(tx, phoneOf(account), attributes.name);
  });
  return afterPassword(ctx, updated, caller, { passwordJustSet: true });
}

async function checkMfaCode(
  ctx: PoolContext,
  session: string | null | undefined,
  r: Record<string, string | null | undefined>,
) {
  const code = r.SMS_MFA_CODE;
  if (!code) throw invalidParameter('SMS_MFA_CODE is required');
  if (!session) throw invalidParameter('Session is required');
  const now = ctx.now();
  const tokenHash = hashSecret(session);
  const challenge = await findChallenge(ctx.db, tokenHash, 'SMS_MFA', now);
  if (!challenge) throw expiredSession();
  const holder = await findAccountById(ctx.db, challenge.account_id);
  if (!holder) throw expiredSession();
  await redeemCode(
    ctx.db,
    ctx.limits,
    { accountId: holder.id, subject: holder.username, purpose: 'sms_mfa', code, now },
    async () => {},
  );
  // Taken only now, so a mistyped code can be retried within the session; taken once, in any process.
  if (!(await takeChallenge(ctx.db, tokenHash, 'SMS_MFA', now))) throw expiredSession();
  return openSession(ctx, holder);
}

// --- forgotten and changed passwords ----------------------------------------------------------

// A registered and an unknown number get the same answer: the delivery details of the number
// typed, whether a code went out or not, and the same limits.
const forgotPassword: Operation = async (ctx, body, caller) => {
  const input = parse(protocol.usernameBody, body);
  checkClient(ctx, input.ClientId);
  const phone = phoneUsername(input.Username);
  await ctx.limits.spendCodeText(phone, caller);
  const account = await findAccountByUsername(ctx.db, phone);
  if (account && account.attributes.phone_number_verified === 'true') {
    const text = await issueCode(ctx.db, account.id, 'forgot_password', ctx.now());
    await ctx.sendCode(phoneOf(account), text);
  }
  return { CodeDeliveryDetails: delivery(phone) };
};

const confirmForgotPassword: Operation = async (ctx, body) => {
  const input = parse(protocol.confirmForgotPasswordBody, body);
  checkClient(ctx, input.ClientId);
  checkPasswordPolicy(input.Password);
  const account = await accountNamed(ctx, input.Username);
  const now = ctx.now();
  if (!account) {
    // Counted and answered like a wrong code for a real account.
    await ctx.limits.spendCodeGuess(subjectOf(input.Username));
    throw codeMismatch();
  }
  const verifier = createVerifier(ctx.poolName, account.username, input.Password);
  await redeemCode(
    ctx.db,
    ctx.limits,
    {
      accountId: account.id,
      subject: account.username,
      purpose: 'forgot_password',
      code: input.ConfirmationCode,
      now,
    },
    async (tx) => {
      const status = account.status === 'FORCE_CHANGE_PASSWORD' ? 'CONFIRMED' : account.status;
      await updateAccount(tx, account.id, { ...verifier, status }, now);
      // Whoever knew the old password may hold sessions: a reset ends them all.
      await revokeAllSessions(tx, account.id, now);
    },
  );
  await ctx.limits.passwordSucceeded(account.username);
  return {};
};

/** The account behind an access token that is valid, unexpired and not signed out. */
async function authorize(ctx: PoolContext, accessToken: string): Promise<AccountRecord> {
  const result = await verifyToken(ctx.key, ctx.tokens, accessToken, 'access', ctx.now());
  if (!result.ok) {
    throw new CognitoError(
      'NotAuthorizedException',
      result.failure === 'expired' ? 'Access Token has expired' : 'Invalid Access Token',
    );
  }
  const account = await findLiveSession(
    ctx.db,
    String(result.payload.origin_jti),
    String(result.payload.sub),
  );
  if (!account) throw new CognitoError('NotAuthorizedException', 'Access Token has been revoked');
  return account;
}

const changePassword: Operation = async (ctx, body, caller) => {
  const input = parse(protocol.changePasswordBody, body);
  const account = await authorize(ctx, input.AccessToken);
  await ctx.limits.checkPassword(account.username, caller);
  if (!passwordMatches(ctx.poolName, account.username, input.PreviousPassword, account)) {
    await ctx.limits.passwordFailed(account.username, caller);
    throw incorrectPassword();
  }
  checkPasswordPolicy(input.ProposedPassword, 'ProposedPassword');
  const verifier = createVerifier(ctx.poolName, account.username, input.ProposedPassword);
  await updateAccount(ctx.db, account.id, verifier, ctx.now());
  return {};
};

// --- the signed-in user ---------------------------------------------------------------------

const getUser: Operation = async (ctx, body) => {
  const input = parse(protocol.accessTokenBody, body);
  const account = await authorize(ctx, input.AccessToken);
  const attributes = Object.entries(publicAttributes(account)).map(([Name, Value]) => ({
    Name,
    Value,
  }));
  return {
    Username: account.username,
    UserAttributes: attributes,
    ...(account.sms_mfa
      ? {
          MFAOptions: [{ DeliveryMedium: 'SMS', AttributeName: 'phone_number' }],
          PreferredMfaSetting: 'SMS_MFA',
          UserMFASettingList: ['SMS_MFA'],
        }
      : {}),
  };
};

// A new phone number applies only once the code texted to it is entered (verifyUserAttribute);
// until then the account keeps its verified number, and a number another account or user row
// holds is refused.
const updateUserAttributes: Operation = async (ctx, body, caller) => {
  const input = parse(protocol.updateUserAttributesBody, body);
  const account = await authorize(ctx, input.AccessToken);
  const { phone_number: newPhone, ...written } = writableAttributes(input.UserAttributes);
  const oldPhone = phoneOf(account);
  const phoneChanged = newPhone !== undefined && newPhone !== oldPhone;
  if (phoneChanged && (await phoneInUse(ctx.db, newPhone, account.id, oldPhone))) {
    throw new CognitoError(
      'AliasExistsException',
      'An account with the given phone_number already exists.',
    );
  }
  if (phoneChanged) await ctx.limits.spendCodeText(newPhone, caller);
  const attributes = { ...account.attributes, ...written };
  const now = ctx.now();
  const text = await ctx.db.transaction(async (tx) => {
    await updateAccount(tx, account.id, { attributes }, now);
    if (written.name) await renameFlexUser(tx, oldPhone, written.name);
    return phoneChanged ? issueCode(tx, account.id, 'verify_phone', now, newPhone) : null;
  });
  if (text && newPhone) {
    await ctx.sendCode(newPhone, text);
    return { CodeDeliveryDetailsList: [delivery(newPhone)] };
  }
  return {};
};

const deleteUserAttributes: Operation = async (ctx, body) => {
  const input = parse(protocol.deleteUserAttributesBody, body);
  const account = await authorize(ctx, input.AccessToken);
  const attributes = { ...account.attributes };
  for (const name of input.UserAttributeNames) {
    if (REQUIRED.has(name) || name === 'sub' || name === 'phone_number_verified') {
      throw invalidParameter(`Cannot delete a required or pool-managed attribute: ${quote(name)}`);
    }
    delete attributes[name];
  }
  await updateAccount(ctx.db, account.id, { attributes }, ctx.now());
  return {};
};

function checkPhoneAttribute(name: string): void {
  if (name !== 'phone_number') {
    throw invalidParameter(
      `AttributeName: ${quote(name)} cannot be verified here; only phone_number is verified (by SMS).`,
    );
  }
}

const getUserAttributeVerificationCode: Operation = async (ctx, body, caller) => {
  const input = parse(protocol.attributeNameBody, body);
  const account = await authorize(ctx, input.AccessToken);
  checkPhoneAttribute(input.AttributeName);
  await ctx.limits.spendCodeText(phoneOf(account), caller);
  const text = await issueCode(ctx.db, account.id, 'verify_phone', ctx.now());
  await ctx.sendCode(phoneOf(account), text);
  return { CodeDeliveryDetails: delivery(phoneOf(account)) };
};

const verifyUserAttribute: Operation = async (ctx, body) => {
  const input = parse(protocol.verifyUserAttributeBody, body);
  const account = await authorize(ctx, input.AccessToken);
  checkPhoneAttribute(input.AttributeName);
  const now = ctx.now();
  await redeemCode(
    ctx.db,
    ctx.limits,
    {
      accountId: account.id,
      subject: account.username,
      purpose: 'verify_phone',
      code: input.Code,
      now,
    },
    async (tx, code) => {
      const oldPhone = phoneOf(account);
      const newPhone = code.pending_phone;
      if (newPhone && newPhone !== oldPhone) {
        // Checked again: the number may have been taken while the code was on its way.
        if (await phoneInUse(tx, newPhone, account.id, oldPhone)) {
          throw new CognitoError(
            'AliasExistsException',
            'An account with the given phone_number already exists.',
          );
        }
        await moveFlexUserPhone(tx, oldPhone, newPhone);
      }
      const attributes = {
        ...account.attributes,
        ...(newPhone ? { phone_number: newPhone } : {}),
        phone_number_verified: 'true',
      };
      await updateAccount(tx, account.id, { attributes }, now);
    },
  );
  return {};
};

const setUserMfaPreference: Operation = async (ctx, body) => {
  const input = parse(protocol.setUserMfaPreferenceBody, body);
  const account = await authorize(ctx, input.AccessToken);
  if (input.SMSMfaSettings && typeof input.SMSMfaSettings.Enabled === 'boolean') {
    await updateAccount(ctx.db, account.id, { sms_mfa: input.SMSMfaSettings.Enabled }, ctx.now());
  }
  return {};
};

const setUserSettings: Operation = async (ctx, body) => {
  const input = parse(protocol.setUserSettingsBody, body);
  const account = await authorize(ctx, input.AccessToken);
  const sms = input.MFAOptions.some((o) => o.DeliveryMedium === 'SMS');
  await updateAccount(ctx.db, account.id, { sms_mfa: sms }, ctx.now());
  return {};
};

const deleteUser: Operation = async (ctx, body) => {
  const input = parse(protocol.accessTokenBody, body);
  const account = await authorize(ctx, input.AccessToken);
  await ctx.db.transaction(async (tx) => {
    await deleteAccount(tx, account.id);
    await deleteFlexUser(tx, phoneOf(account));
  });
  return {};
};

const globalSignOut: Operation = async (ctx, body) => {
  const input = parse(protocol.accessTokenBody, body);
  const account = await authorize(ctx, input.AccessToken);
  await revokeAllSessions(ctx.db, account.id, ctx.now());
  return {};
};

const revokeToken: Operation = async (ctx, body) => {
  const input = parse(protocol.revokeTokenBody, body);
  checkClient(ctx, input.ClientId);
  const session = await findSessionByRefreshHash(ctx.db, hashSecret(input.Token));
  // An unknown token is already as revoked as it can be; answering alike reveals nothing.
  if (session) await revokeSession(ctx.db, session.id, ctx.now());
  return {};
};

export const operations: Readonly<Record<string, Operation>> = {
  SignUp: signUp,
  ConfirmSignUp: confirmSignUp,
  ResendConfirmationCode: resendConfirmationCode,
  InitiateAuth: initiateAuth,
  RespondToAuthChallenge: respondToAuthChallenge,
  ForgotPassword: forgotPassword,
  ConfirmForgotPassword: confirmForgotPassword,
  ChangePassword: changePassword,
  GetUser: getUser,
  UpdateUserAttributes: updateUserAttributes,
  DeleteUserAttributes: deleteUserAttributes,
  GetUserAttributeVerificationCode: getUserAttributeVerificationCode,
  VerifyUserAttribute: verifyUserAttribute,
  SetUserMFAPreference: setUserMfaPreference,
  SetUserSettings: setUserSettings,
  DeleteUser: deleteUser,
  GlobalSignOut: globalSignOut,
  RevokeToken: revokeToken,
};

/** Creates a confirmed account (seeding); a temporary one must set a new password first. */
export async function ensureAccount(
  ctx: PoolContext,
  input: {
    phoneNumber: string;
    password: string;
    name: string;
    temporaryPassword?: boolean;
    smsMfa?: boolean;
  },
): Promise<void> {
  const username = phoneUsername(input.phoneNumber, 'phoneNumber');
  if (await findAccountByUsername(ctx.db, username)) return;
  const now = ctx.now();
  await insertAccount(ctx.db, {
    id: randomUUID(),
    username,
    status: input.temporaryPassword ? 'FORCE_CHANGE_PASSWORD' : 'CONFIRMED',
    ...createVerifier(ctx.poolName, username, input.password),
    attributes: { name: input.name, phone_number: username, phone_number_verified: 'true' },
    sms_mfa: input.smsMfa ?? false,
    created_ts: now,
    updated_ts: now,
  });
}
