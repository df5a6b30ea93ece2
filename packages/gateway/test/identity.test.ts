// The user pool through amazon-cognito-identity-js itself, on PGlite: sign-up, SRP and password
// sign-in, codes, refresh, sign-out, attributes, and forged or expired tokens.
import { CognitoRefreshToken, type CognitoUserSession } from 'amazon-cognito-identity-js';
import { createLocalJWKSet, decodeJwt, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_ID,
  call,
  cognitoCall,
  confirm,
  failure,
  type Harness,
  signedIn,
  signIn,
  signUp,
  startPool,
  USER_POOL_ID,
} from './identity-harness.js';

let h: Harness;
let phoneSeq = 5550100;
const nextPhone = () => `+1312${phoneSeq++}`;
const PASSWORD = 'correct-horse-1';

beforeAll(async () => {
  h = await startPool();
});
afterAll(async () => {
  await h.close();
});
afterEach(() => {
  h.clock.offset = 0;
});

/** A confirmed driver, signed up and confirmed through the library. */
async function driver(password = PASSWORD) {
  const pool = h.pool();
  const phone = nextPhone();
  await signUp(pool, phone, password);
  await confirm(h.user(pool, phone), h.lastCode(phone));
  return { pool, phone, user: h.user(pool, phone) };
}

describe('sign-up and confirmation', () => {
  it('signs up by phone, texts a 6-digit code, confirms, and signs in by SRP with verifiable tokens', async () => {
    const pool = h.pool();
    const phone = nextPhone();
    const result = await signUp(pool, phone, PASSWORD, 'Ana Flores');
    expect(result.userConfirmed).toBe(false);
    expect(h.sent.at(-1)).toEqual({
      to: phone,
      text: expect.stringMatching(/^Your BlockCatch verification code is \d{6}$/),
    });
    const app = await h.db.query<{ name: string }>(
      "SELECT name FROM users WHERE product = 'flex' AND phone_number = $1",
      [phone],
    );
    expect(app).toEqual([{ name: 'Ana Flores' }]);

    await confirm(h.user(pool, phone), h.lastCode(phone));
    const session = await signedIn(h.user(pool, phone), PASSWORD);

    const jwks = createLocalJWKSet(
      (await (await fetch(`${h.url}.well-known/jwks.json`)).json()) as { keys: [] },
    );
    const id = await jwtVerify(session.getIdToken().getJwtToken(), jwks, { audience: CLIENT_ID });
    expect(id.payload).toMatchObject({
      sub: result.userSub,
      'cognito:username': phone,
      phone_number: phone,
      phone_number_verified: true,
      name: 'Ana Flores',
      token_use: 'id',
      aud: CLIENT_ID,
    });
    expect(id.payload.exp! - id.payload.iat!).toBe(3600);
    expect(id.protectedHeader.alg).toBe('RS256');
    const access = await jwtVerify(session.getAccessToken().getJwtToken(), jwks);
    expect(access.payload).toMatchObject({
      token_use: 'access',
      client_id: CLIENT_ID,
      username: phone,
      scope: 'aws.cognito.signin.user.admin',
    });
    const poolJwks = await (await fetch(`${h.url}${USER_POOL_ID}/.well-known/jwks.json`)).json();
    expect(poolJwks).toEqual(await (await fetch(`${h.url}.well-known/jwks.json`)).json());

    const claims = await h.identity.verifyIdToken(session.getIdToken().getJwtToken());
    expect(claims).toMatchObject({
      phone_number: phone,
      'cognito:username': phone,
      name: 'Ana Flores',
    });
  });

  it('accepts a number typed with punctuation and signs in under its canonical form', async () => {
    const pool = h.pool();
    const phone = nextPhone();
    const typed = `(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`;
    await signUp(pool, typed, PASSWORD).catch(() => {});
    // The library sends phone_number = typed too; both normalise to the same account.
    await confirm(h.user(pool, typed), h.lastCode(phone));
    const session = await signedIn(h.user(pool, typed), PASSWORD);
    expect(session.getIdToken().decodePayload()['cognito:username']).toBe(phone);
  });

  it('refuses a second sign-up with the same phone', async () => {
    const { pool, phone } = await driver();
    expect(await failure(signUp(pool, phone, PASSWORD))).toEqual({
      code: 'UsernameExistsException',
      message: 'An account with the given phone_number already exists.',
    });
  });

  it('refuses a password shorter than 8 characters', async () => {
    const pool = h.pool();
    const phone = nextPhone();
    expect(await failure(signUp(pool, phone, 'short7!'))).toEqual({
      code: 'InvalidPasswordException',
      message: 'Password did not conform with policy: Password not long enough',
    });
    expect(
      await h.db.query('SELECT 1 FROM identity_accounts WHERE username = $1', [phone]),
    ).toEqual([]);
  });

  it('refuses a username that is not a phone number, naming the field', async () => {
    const err = await failure(signUp(h.pool(), 'dana@example.com', PASSWORD));
    expect(err.code).toBe('InvalidParameterException');
    expect(err.message).toContain('Username');
  });

  it('keeps an unconfirmed account from signing in', async () => {
    const pool = h.pool();
    const phone = nextPhone();
    await signUp(pool, phone, PASSWORD);
    expect(await failure(signIn(h.user(pool, phone), PASSWORD))).toEqual({
      code: 'UserNotConfirmedException',
      message: 'User is not confirmed.',
    });
  });

  it('rejects a wrong code, and an expired one after 24 hours', async () => {
    const pool = h.pool();
    const phone = nextPhone();
    await signUp(pool, phone, PASSWORD);
    const code = h.lastCode(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await failure(confirm(h.user(pool, phone), wrong))).code).toBe('CodeMismatchException');
    h.clock.offset = 24 * 3600_000 + 1000;
    expect((await failure(confirm(h.user(pool, phone), code))).code).toBe('ExpiredCodeException');
    h.clock.offset = 0;
    await call((cb) => h.user(pool, phone).resendConfirmationCode(cb));
    const fresh = h.lastCode(phone);
    await confirm(h.user(pool, phone), fresh);
    await signedIn(h.user(pool, phone), PASSWORD);
  });

  it('locks the code after 5 wrong guesses, even against the right one', async () => {
    const pool = h.pool();
    const phone = nextPhone();
    await signUp(pool, phone, PASSWORD);
    const code = h.lastCode(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      expect((await failure(confirm(h.user(pool, phone), wrong))).code).toBe(
        'CodeMismatchException',
      );
    }
    expect(await failure(confirm(h.user(pool, phone), code))).toEqual({
      code: 'LimitExceededException',
      message: 'Attempt limit exceeded, please try after some time.',
    });
  });
});

describe('sign-in', () => {
  it('signs in with USER_PASSWORD_AUTH, checking the password against the SRP verifier', async () => {
    const { user, phone } = await driver();
    const session = await signedIn(user, PASSWORD, 'USER_PASSWORD_AUTH');
    expect(session.getIdToken().decodePayload().phone_number).toBe(phone);
    expect(await failure(signIn(user, 'wrong-password', 'USER_PASSWORD_AUTH'))).toEqual({
      code: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
  });

  it('answers a wrong SRP password, and an unknown user, with NotAuthorizedException', async () => {
    const { user, pool } = await driver();
    expect(await failure(signIn(user, 'not-the-password'))).toEqual({
      code: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
    expect((await failure(signIn(h.user(pool, nextPhone()), PASSWORD))).code).toBe(
      'NotAuthorizedException',
    );
  });

  it('stores no password, only a salt and an SRP verifier', async () => {
    const { phone } = await driver('a-very-memorable-pw');
    const rows = await h.db.query<Record<string, unknown>>(
      'SELECT * FROM identity_accounts WHERE username = $1',
      [phone],
    );
    expect(JSON.stringify(rows)).not.toContain('a-very-memorable-pw');
    expect(rows[0]?.verifier).toMatch(/^[0-9a-f]{700,}$/);
  });

  it('requires PASSWORD for USER_PASSWORD_AUTH and a known ClientId', async () => {
    const { phone } = await driver();
    const noPassword = await cognitoCall(h.url, 'InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: CLIENT_ID,
      AuthParameters: { USERNAME: phone },
    });
    expect(noPassword).toMatchObject({
      status: 400,
      errorType: 'InvalidParameterException',
      body: { __type: 'InvalidParameterException', message: 'PASSWORD parameter is required' },
    });
    const wrongClient = await cognitoCall(h.url, 'InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: 'someone-else',
      AuthParameters: { USERNAME: phone, PASSWORD },
    });
    expect(wrongClient.body.__type).toBe('ResourceNotFoundException');
  });

  it('asks for an SMS code when MFA is on, and signs in with it', async () => {
    const phone = nextPhone();
    await h.identity.ensureAccount({
      phoneNumber: phone,
      password: PASSWORD,
      name: 'M',
      smsMfa: true,
    });
    const user = h.user(h.pool(), phone);
    const outcome = await signIn(user, PASSWORD);
    expect(outcome).toMatchObject({
      kind: 'mfa',
      parameters: { CODE_DELIVERY_DELIVERY_MEDIUM: 'SMS' },
    });
    const code = h.lastCode(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const mfa = (value: string) =>
      new Promise<CognitoUserSession>((resolve, reject) =>
        user.sendMFACode(value, { onSuccess: resolve, onFailure: reject }),
      );
    expect((await failure(mfa(wrong))).code).toBe('CodeMismatchException');
    const session = await mfa(code);
    expect(session.getIdToken().decodePayload().phone_number).toBe(phone);
  });

  it('makes an admin-created account set a new password before it gets tokens', async () => {
    const phone = nextPhone();
    await h.identity.ensureAccount({
      phoneNumber: phone,
      password: 'temporary-pass',
      name: 'Staff',
      temporaryPassword: true,
    });
    const user = h.user(h.pool(), phone);
    expect(await signIn(user, 'temporary-pass')).toMatchObject({
      kind: 'newPassword',
      attributes: { name: 'Staff', phone_number: phone },
    });
    const complete = (password: string) =>
      new Promise<CognitoUserSession>((resolve, reject) =>
        user.completeNewPasswordChallenge(password, {}, { onSuccess: resolve, onFailure: reject }),
      );
    const raw = await cognitoCall(h.url, 'RespondToAuthChallenge', {
      ClientId: CLIENT_ID,
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      ChallengeResponses: { USERNAME: phone, NEW_PASSWORD: '' },
      Session: 'whatever',
    });
    expect(raw.body).toEqual({
      __type: 'InvalidParameterException',
      message: 'New password is required.',
    });
    expect((await failure(complete('short'))).code).toBe('InvalidPasswordException');
    await complete('brand-new-password');
    await signedIn(h.user(h.pool(), phone), 'brand-new-password');
    expect((await failure(signIn(h.user(h.pool(), phone), 'temporary-pass'))).code).toBe(
      'NotAuthorizedException',
    );
  });

  it('expires a challenge session after 3 minutes', async () => {
    const phone = nextPhone();
    await h.identity.ensureAccount({
      phoneNumber: phone,
      password: PASSWORD,
      name: 'M',
      smsMfa: true,
    });
    const user = h.user(h.pool(), phone);
    await signIn(user, PASSWORD);
    const code = h.lastCode(phone);
    h.clock.offset = 3 * 60_000 + 1000;
    const err = await failure(
      new Promise((resolve, reject) =>
        user.sendMFACode(code, { onSuccess: resolve, onFailure: reject }),
      ),
    );
    expect(err).toEqual({
      code: 'NotAuthorizedException',
      message: 'Invalid session for the user, session is expired.',
    });
  });
});

describe('sessions', () => {
  it('refreshes an expired id token with the refresh token', async () => {
    const { user } = await driver();
    const session = await signedIn(user, PASSWORD);
    const renewed = await call<CognitoUserSession>((cb) =>
      user.refreshSession(session.getRefreshToken(), cb),
    );
    expect(renewed.getIdToken().getJwtToken()).not.toBe(session.getIdToken().getJwtToken());
    await h.identity.verifyIdToken(renewed.getIdToken().getJwtToken());
  });

  it('revokes every refresh token and id token on GlobalSignOut', async () => {
    const { user, phone } = await driver();
    const session = await signedIn(user, PASSWORD);
    const other = await signedIn(h.user(h.pool(), phone), PASSWORD);
    await new Promise((resolve, reject) =>
      user.globalSignOut({ onSuccess: resolve, onFailure: reject }),
    );
    for (const s of [session, other]) {
      const refresh = await cognitoCall(h.url, 'InitiateAuth', {
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: CLIENT_ID,
        AuthParameters: { REFRESH_TOKEN: s.getRefreshToken().getToken() },
      });
      expect(refresh.body).toEqual({
        __type: 'NotAuthorizedException',
        message: 'Refresh Token has been revoked',
      });
      await expect(h.identity.verifyIdToken(s.getIdToken().getJwtToken())).rejects.toMatchObject({
        status: 401,
      });
    }
    const getUser = await cognitoCall(h.url, 'GetUser', {
      AccessToken: session.getAccessToken().getJwtToken(),
    });
    expect(getUser.body.__type).toBe('NotAuthorizedException');
  });

  it('revokes one refresh token on sign-out with revocation, leaving other devices signed in', async () => {
    const { user, phone } = await driver();
    const session = await signedIn(user, PASSWORD);
    const other = await signedIn(h.user(h.pool(), phone), PASSWORD);
    // The typings omit it, but the library hands the revocation's error to this callback.
    await new Promise<void>((resolve, reject) =>
      user.signOut((...args: unknown[]) => (args[0] ? reject(args[0]) : resolve())),
    );
    const revoked = await cognitoCall(h.url, 'InitiateAuth', {
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: CLIENT_ID,
      AuthParameters: { REFRESH_TOKEN: session.getRefreshToken().getToken() },
    });
    expect(revoked.body.message).toBe('Refresh Token has been revoked');
    const renewed = await call<CognitoUserSession>((cb) =>
      h
        .user(h.pool(), phone)
        .refreshSession(
          new CognitoRefreshToken({ RefreshToken: other.getRefreshToken().getToken() }),
          cb,
        ),
    );
    expect(renewed.isValid()).toBe(true);
  });
});

describe('passwords', () => {
  it('resets a forgotten password with the texted code', async () => {
    const { user, phone } = await driver();
    await new Promise((resolve, reject) =>
      user.forgotPassword({
        onSuccess: resolve,
        onFailure: reject,
        inputVerificationCode: resolve,
      }),
    );
    expect(h.sent.at(-1)?.text).toMatch(/^Your BlockCatch password reset code is \d{6}$/);
    const confirmPassword = (code: string, password: string) =>
      new Promise((resolve, reject) =>
        user.confirmPassword(code, password, { onSuccess: resolve, onFailure: reject }),
      );
    const code = h.lastCode(phone);
    expect(
      (await failure(confirmPassword(code === '000000' ? '111111' : '000000', 'new-password-1')))
        .code,
    ).toBe('CodeMismatchException');
    await confirmPassword(code, 'new-password-1');
    await signedIn(h.user(h.pool(), phone), 'new-password-1');
    expect((await failure(signIn(h.user(h.pool(), phone), PASSWORD))).code).toBe(
      'NotAuthorizedException',
    );
  });

  it('expires a forgot-password code after an hour', async () => {
    const { user, phone } = await driver();
    await new Promise((resolve, reject) =>
      user.forgotPassword({
        onSuccess: resolve,
        onFailure: reject,
        inputVerificationCode: resolve,
      }),
    );
    h.clock.offset = 3600_000 + 1000;
    const err = await failure(
      new Promise((resolve, reject) =>
        user.confirmPassword(h.lastCode(phone), 'new-password-1', {
          onSuccess: resolve,
          onFailure: reject,
        }),
      ),
    );
    expect(err.code).toBe('ExpiredCodeException');
  });

  it('changes the password of a signed-in user who knows the old one', async () => {
    const { user, phone } = await driver();
    await signedIn(user, PASSWORD);
    expect(
      (await failure(call((cb) => user.changePassword('not-it-at-all', 'next-password', cb)))).code,
    ).toBe('NotAuthorizedException');
    await call((cb) => user.changePassword(PASSWORD, 'next-password', cb));
    await signedIn(h.user(h.pool(), phone), 'next-password', 'USER_PASSWORD_AUTH');
  });
});

describe('attributes and account', () => {
  it('updates, reads and deletes attributes', async () => {
    const { user, phone } = await driver();
    await signedIn(user, PASSWORD);
    await call((cb) =>
      user.updateAttributes(
        [
          { Name: 'name', Value: 'Renamed Driver' },
          { Name: 'locale', Value: 'es' },
        ],
        cb,
      ),
    );
    const read = async () =>
      Object.fromEntries(
        (await call<{ Name: string; Value: string }[]>((cb) => user.getUserAttributes(cb))).map(
          (a) => [a.Name, a.Value],
        ),
      );
    expect(await read()).toMatchObject({
      name: 'Renamed Driver',
      locale: 'es',
      phone_number: phone,
    });
    const app = await h.db.query(
      "SELECT name FROM users WHERE product = 'flex' AND phone_number = $1",
      [phone],
    );
    expect(app).toEqual([{ name: 'Renamed Driver' }]);
    await call((cb) => user.deleteAttributes(['locale'], cb));
    expect(await read()).not.toHaveProperty('locale');
    expect((await failure(call((cb) => user.deleteAttributes(['name'], cb)))).code).toBe(
      'InvalidParameterException',
    );
    expect(
      (await failure(call((cb) => user.updateAttributes([{ Name: 'isAdmin', Value: 'true' }], cb))))
        .code,
    ).toBe('InvalidParameterException');
  });

  it('moves to a new phone number only once the code texted to it is entered', async () => {
    const { user, phone } = await driver();
    await signedIn(user, PASSWORD);
    const next = nextPhone();
    await call((cb) => user.updateAttributes([{ Name: 'phone_number', Value: next }], cb));
    expect(h.sent.at(-1)?.to).toBe(next);
    const rowAt = (number: string) =>
      h.db.query("SELECT 1 FROM users WHERE product = 'flex' AND phone_number = $1", [number]);
    // Until verified, the account and its app row keep the old, verified number.
    expect(await rowAt(next)).toHaveLength(0);
    expect(
      (await signedIn(h.user(h.pool(), phone), PASSWORD)).getIdToken().decodePayload(),
    ).toMatchObject({ phone_number: phone, phone_number_verified: true });
    const verify = (code: string) =>
      new Promise((resolve, reject) =>
        user.verifyAttribute('phone_number', code, { onSuccess: resolve, onFailure: reject }),
      );
    expect((await failure(verify('12345x'))).code).toBe('CodeMismatchException');
    await verify(h.lastCode(next));
    expect(await rowAt(next)).toHaveLength(1);
    const fresh = await signedIn(h.user(h.pool(), phone), PASSWORD);
    expect(fresh.getIdToken().decodePayload()).toMatchObject({
      phone_number: next,
      phone_number_verified: true,
    });

    await new Promise((resolve, reject) =>
      user.getAttributeVerificationCode('phone_number', {
        onSuccess: resolve,
        onFailure: reject,
        inputVerificationCode: resolve,
      }),
    );
    expect(h.sent.at(-1)?.to).toBe(next);
  });

  it('deletes the account and its app row, after which its tokens are refused', async () => {
    const { user, phone } = await driver();
    const session = await signedIn(user, PASSWORD);
    await call((cb) => user.deleteUser(cb));
    expect(
      await h.db.query("SELECT 1 FROM users WHERE product = 'flex' AND phone_number = $1", [phone]),
    ).toEqual([]);
    await expect(
      h.identity.verifyIdToken(session.getIdToken().getJwtToken()),
    ).rejects.toMatchObject({
      status: 401,
      message: 'User is not authenticated',
    });
    expect((await failure(signIn(h.user(h.pool(), phone), PASSWORD))).code).toBe(
      'NotAuthorizedException',
    );
  });
});

describe('verifyIdToken refuses forged and expired tokens', () => {
  let token: string;
  beforeAll(async () => {
    const { user } = await driver();
    token = (await signedIn(user, PASSWORD)).getIdToken().getJwtToken();
  });
  const refused = (t: string, message = 'User is not authenticated') =>
    expect(h.identity.verifyIdToken(t)).rejects.toMatchObject({
      status: 401,
      code: 'unauthenticated',
      message,
    });

  it('refuses the same claims signed with another key under our kid', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const { kid } = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString());
    const forged = await new SignJWT(decodeJwt(token))
      .setProtectedHeader({ alg: 'RS256', kid })
      .sign(privateKey);
    await refused(forged);
  });

  it("refuses 'alg: none'", async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    await refused(`${header}.${token.split('.')[1]}.`);
  });

  it('refuses HS256 keyed with our public key', async () => {
    const jwks = (await (await fetch(`${h.url}.well-known/jwks.json`)).json()) as {
      keys: { n: string }[];
    };
    const secret = new TextEncoder().encode(JSON.stringify(jwks.keys[0]));
    await refused(
      await new SignJWT(decodeJwt(token)).setProtectedHeader({ alg: 'HS256' }).sign(secret),
    );
  });

  it('refuses tampered claims', async () => {
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    claims.phone_number = '+13125550000';
    await refused(
      `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`,
    );
  });

  it('refuses an access token in place of an id token, and garbage', async () => {
    const { user } = await driver();
    const session = await signedIn(user, PASSWORD);
    await refused(session.getAccessToken().getJwtToken());
    await refused('not.a.token');
  });

  it('refuses an expired id token with a message that says so', async () => {
    h.clock.offset = 3601_000;
    await refused(token, 'The id token has expired. Sign in again.');
  });

  it('refuses a token issued for another app client (audience)', async () => {
    const other = await startPool({ db: h.db, clientId: 'another-client' });
    try {
      await expect(other.identity.verifyIdToken(token)).rejects.toMatchObject({ status: 401 });
    } finally {
      await other.close();
    }
  });

  it('lets a second gateway process on the same database verify what the first one signed', async () => {
    const other = await startPool({ db: h.db });
    try {
      await expect(other.identity.verifyIdToken(token)).resolves.toMatchObject({ token_use: 'id' });
      const jwks = async (url: string) => (await fetch(`${url}.well-known/jwks.json`)).json();
      expect(await jwks(other.url)).toEqual(await jwks(h.url));
    } finally {
      await other.close();
    }
  });
});

describe('the protocol edge', () => {
  it('answers malformed JSON, unknown targets and bad fields with Cognito errors, never a 500', async () => {
    const malformed = await cognitoCall(h.url, 'SignUp', '{"ClientId":');
    expect(malformed).toMatchObject({ status: 400, body: { __type: 'SerializationException' } });
    const unknown = await cognitoCall(h.url, 'AdminDeleteUser', {});
    expect(unknown).toMatchObject({ status: 400, errorType: 'UnknownOperationException' });
    const badType = await cognitoCall(h.url, 'SignUp', {
      ClientId: CLIENT_ID,
      Username: 5,
      Password: PASSWORD,
    });
    expect(badType.body.__type).toBe('InvalidParameterException');
    expect(String(badType.body.message)).toContain('Username');
    const huge = await cognitoCall(h.url, 'SignUp', {
      ClientId: CLIENT_ID,
      pad: 'x'.repeat(6 * 1024 * 1024),
    });
    expect(huge.status).toBe(413);
  });
});
