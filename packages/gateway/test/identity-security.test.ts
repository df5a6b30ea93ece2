// Attacks on the user pool, made as a stranger would make them against a running pool: guessing
// codes, guessing and spraying passwords, pumping texts, telling registered numbers apart, and
// text that cannot be stored (NUL, lone surrogates) or is long enough to be echoed back.
// Windows and locks run on the pool's clock (`h.clock`), never on sleeps.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_ID,
  cognitoCall,
  confirm,
  failure,
  type Harness,
  signedIn,
  signIn,
  signUp,
  startPool,
} from './identity-harness.js';

let h: Harness;
let phoneSeq = 5550100;
const nextPhone = () => `+1415${phoneSeq++}`;
const PASSWORD = 'correct-horse-1';
const MINUTE = 60_000;

beforeAll(async () => {
  h = await startPool();
});
afterAll(async () => {
  await h.close();
});
afterEach(() => {
  h.clock.offset = 0;
});

async function driver() {
  const pool = h.pool();
  const phone = nextPhone();
  await signUp(pool, phone, PASSWORD);
  await confirm(h.user(pool, phone), h.lastCode(phone));
  return { pool, phone };
}

const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');

const op = (url: string, operation: string, body: Record<string, unknown>) =>
  cognitoCall(url, operation, { ClientId: CLIENT_ID, ...body });

const passwordSignIn = (url: string, phone: string, password: string) =>
  op(url, 'InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: phone, PASSWORD: password },
  });

describe('one-time codes', () => {
  it('allows 5 wrong guesses per account per hour across codes; a resend does not reset them', async () => {
    const pool = h.pool();
    const phone = nextPhone();
    await signUp(pool, phone, PASSWORD);
    const confirmWith = (code: string) =>
      op(h.url, 'ConfirmSignUp', { Username: phone, ConfirmationCode: code });
    for (let i = 0; i < 3; i++) {
      expect((await confirmWith(wrongCode(h.lastCode(phone)))).errorType).toBe(
        'CodeMismatchException',
      );
    }
    await op(h.url, 'ResendConfirmationCode', { Username: phone });
    for (let i = 0; i < 2; i++) {
      expect((await confirmWith(wrongCode(h.lastCode(phone)))).errorType).toBe(
        'CodeMismatchException',
      );
    }
    // The right, fresh code is refused too until the hour has passed.
    const right = await confirmWith(h.lastCode(phone));
    expect(right).toMatchObject({ status: 400, errorType: 'LimitExceededException' });
    h.clock.offset = 61 * MINUTE;
    expect((await confirmWith(h.lastCode(phone))).status).toBe(200);
  });

  it('keeps counting when a new ForgotPassword sends a new reset code', async () => {
    const { phone } = await driver();
    const reset = (code: string) =>
      op(h.url, 'ConfirmForgotPassword', {
        Username: phone,
        ConfirmationCode: code,
        Password: 'taken-over-pw-1',
      });
    for (let round = 0; round < 5; round++) {
      await op(h.url, 'ForgotPassword', { Username: phone });
      expect((await reset(wrongCode(h.lastCode(phone)))).errorType).toBe('CodeMismatchException');
    }
    h.clock.offset = 61 * MINUTE;
    expect((await op(h.url, 'ForgotPassword', { Username: phone })).status).toBe(200);
    h.clock.offset = 0;
    expect((await reset(h.lastCode(phone))).errorType).toBe('LimitExceededException');
    // The password did not change.
    await signedIn(h.user(h.pool(), phone), PASSWORD, 'USER_PASSWORD_AUTH');
  });
});

describe('passwords', () => {
  it('locks an account after 5 wrong passwords in a row, the right one included, for longer each time', async () => {
    const { phone } = await driver();
    for (let i = 0; i < 5; i++) {
      expect(await passwordSignIn(h.url, phone, `wrong-${i}-password`)).toMatchObject({
        errorType: 'NotAuthorizedException',
        body: { message: 'Incorrect username or password.' },
      });
    }
    expect(await passwordSignIn(h.url, phone, PASSWORD)).toMatchObject({
      errorType: 'NotAuthorizedException',
      body: { message: 'Password attempts exceeded' },
    });
    h.clock.offset = 61_000;
    for (let i = 0; i < 5; i++) await passwordSignIn(h.url, phone, `again-${i}-password`);
    // The second lock lasts twice as long as the first.
    h.clock.offset += 61_000;
    expect((await passwordSignIn(h.url, phone, PASSWORD)).body.message).toBe(
      'Password attempts exceeded',
    );
    h.clock.offset += 60_000;
    expect((await passwordSignIn(h.url, phone, PASSWORD)).status).toBe(200);
  });

  it('locks SRP sign-in the same way', async () => {
    const { pool, phone } = await driver();
    for (let i = 0; i < 5; i++) {
      expect((await failure(signIn(h.user(pool, phone), `wrong-${i}-password`))).message).toBe(
        'Incorrect username or password.',
      );
    }
    expect(await failure(signIn(h.user(pool, phone), PASSWORD))).toEqual({
      code: 'NotAuthorizedException',
      message: 'Password attempts exceeded',
    });
  });

  it('stops one address spraying a password over many accounts', async () => {
    const limited = await startPool({ limits: { passwordFailuresPerIpPerHour: 20 } });
    try {
      const pool = limited.pool();
      const victim = nextPhone();
      await signUp(pool, victim, PASSWORD);
      await confirm(limited.user(pool, victim), limited.lastCode(victim));
      for (let i = 0; i < 20; i++) {
        expect((await passwordSignIn(limited.url, nextPhone(), 'Summer2026!')).errorType).toBe(
          'NotAuthorizedException',
        );
      }
      expect((await passwordSignIn(limited.url, victim, PASSWORD)).errorType).toBe(
        'LimitExceededException',
      );
    } finally {
      await limited.close();
    }
  });
});

describe('texts with a code', () => {
  it('sends at most 5 codes to one number per hour', async () => {
    const { phone } = await driver();
    const before = h.sent.filter((m) => m.to === phone).length;
    const answers = [];
    for (let i = 0; i < 6; i++)
      answers.push(await op(h.url, 'ForgotPassword', { Username: phone }));
    expect(answers.slice(0, 4).every((a) => a.status === 200)).toBe(true);
    expect(answers[5]!.errorType).toBe('LimitExceededException');
    // The sign-up code was the first of the 5.
    expect(h.sent.filter((m) => m.to === phone).length - before).toBe(4);
  });

  it('signs up at most 10 numbers from one address per hour', async () => {
    const limited = await startPool({ limits: { codesPerIpPerHour: 10 } });
    try {
      const answers = [];
      for (let i = 0; i < 11; i++) {
        answers.push(
          await op(limited.url, 'SignUp', {
            Username: nextPhone(),
            Password: PASSWORD,
            UserAttributes: [{ Name: 'name', Value: 'Pumped' }],
          }),
        );
      }
      expect(answers.slice(0, 10).every((a) => a.status === 200)).toBe(true);
      expect(answers[10]!.errorType).toBe('LimitExceededException');
      expect(limited.sent).toHaveLength(10);
    } finally {
      await limited.close();
    }
  });

  it('caps the codes texted per hour in total', async () => {
    const limited = await startPool({ limits: { codesPerHour: 3 } });
    try {
      for (let i = 0; i < 4; i++)
        await op(limited.url, 'ForgotPassword', { Username: nextPhone() });
      const pool = limited.pool();
      expect((await failure(signUp(pool, nextPhone(), PASSWORD))).code).toBe(
        'LimitExceededException',
      );
    } finally {
      await limited.close();
    }
  });
});

describe('registered and unknown numbers answer alike', () => {
  it('ForgotPassword and ConfirmForgotPassword', async () => {
    const { phone } = await driver();
    const stranger = nextPhone();
    const forgot = async (p: string) => {
      const answer = await op(h.url, 'ForgotPassword', { Username: p });
      return { ...answer, body: JSON.stringify(answer.body).replaceAll(p.slice(-4), 'NNNN') };
    };
    expect(await forgot(stranger)).toEqual(await forgot(phone));
    const confirmReset = (p: string) =>
      op(h.url, 'ConfirmForgotPassword', {
        Username: p,
        ConfirmationCode: wrongCode(h.lastCode(phone)),
        Password: 'new-password-1',
      });
    expect(await confirmReset(stranger)).toEqual(await confirmReset(phone));
  });

  it('password sign-in, in about the same time', async () => {
    const { phone } = await driver();
    const stranger = nextPhone();
    const known = await passwordSignIn(h.url, phone, 'not-the-password');
    const unknown = await passwordSignIn(h.url, stranger, 'not-the-password');
    expect(unknown).toEqual(known);
    const time = async (p: string) => {
      const start = performance.now();
      await passwordSignIn(h.url, p, 'not-the-password');
      return performance.now() - start;
    };
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < 3; i++) {
      knownTimes.push(await time(phone));
      unknownTimes.push(await time(stranger));
    }
    const median = (list: number[]) => list.sort((a, b) => a - b)[1]!;
    // An unknown user is checked against a stand-in verifier, so both pay for the same math.
    expect(median(unknownTimes)).toBeGreaterThan(median(knownTimes) / 4);
  });

  it('SRP: an unknown user gets a challenge with a stable salt, then the wrong-password answer', async () => {
    const stranger = nextPhone();
    const { phone } = await driver();
    const start = (p: string) =>
      op(h.url, 'InitiateAuth', {
        AuthFlow: 'USER_SRP_AUTH',
        AuthParameters: { USERNAME: p, SRP_A: 'abc123' },
      });
    const first = await start(stranger);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ChallengeName: 'PASSWORD_VERIFIER' });
    const salt = (first.body.ChallengeParameters as { SALT: string }).SALT;
    // Shaped like a real account's: 128 random bits as Cognito pads them, whole bytes with 00 before
    // a high first bit; leading zero bytes are dropped, so about 1 salt in 512 is shorter.
    expect(salt).toMatch(/^(?:00[89a-f]|(?!00)[0-7])[0-9a-f](?:[0-9a-f]{2}){0,15}$/);
    const again = await start(stranger);
    expect((again.body.ChallengeParameters as { SALT: string }).SALT).toBe(salt);
    expect(Object.keys((await start(phone)).body.ChallengeParameters as object).sort()).toEqual(
      Object.keys(first.body.ChallengeParameters as object).sort(),
    );
    const pool = h.pool();
    expect(await failure(signIn(h.user(pool, stranger), PASSWORD))).toEqual(
      await failure(signIn(h.user(pool, phone), 'not-the-password')),
    );
  });
});

describe('phone number changes', () => {
  it('refuses a number that belongs to a user row without an account', async () => {
    const { pool, phone } = await driver();
    const taken = nextPhone();
    await h.db.query(
      `INSERT INTO users (id, product, phone_number, name, create_date_ts)
       VALUES ('row-without-account', 'flex', $1, 'Staff Member', 0)`,
      [taken],
    );
    const session = await signedIn(h.user(pool, phone), PASSWORD);
    const answer = await cognitoCall(h.url, 'UpdateUserAttributes', {
      AccessToken: session.getAccessToken().getJwtToken(),
      UserAttributes: [{ Name: 'phone_number', Value: taken }],
    });
    expect(answer.errorType).toBe('AliasExistsException');
    expect(h.sent.filter((m) => m.to === taken)).toHaveLength(0);
  });
});

describe('unencodable and oversized input', () => {
  const LONG = 'x'.repeat(100_000);
  /** What an answer may repeat of the input at most. */
  const ECHOED = 'x'.repeat(201);

  /** A plausible body for every operation, signed in as a real driver where a token is needed. */
  async function plausibleBodies(): Promise<Record<string, Record<string, unknown>>> {
    const { pool, phone } = await driver();
    const session = await signedIn(h.user(pool, phone), PASSWORD);
    const AccessToken = session.getAccessToken().getJwtToken();
    const client = { ClientId: CLIENT_ID };
    return {
      SignUp: {
        ...client,
        Username: nextPhone(),
        Password: PASSWORD,
        UserAttributes: [{ Name: 'name', Value: 'Dana Driver' }],
      },
      ConfirmSignUp: { ...client, Username: phone, ConfirmationCode: '123456' },
      ResendConfirmationCode: { ...client, Username: phone },
      InitiateAuth: {
        ...client,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: phone, PASSWORD: 'not-the-password' },
      },
      RespondToAuthChallenge: {
        ...client,
        ChallengeName: 'SMS_MFA',
        ChallengeResponses: { USERNAME: phone, SMS_MFA_CODE: '123456' },
        Session: 'c2Vzc2lvbi10aGF0LWRvZXMtbm90LWV4aXN0',
      },
      ForgotPassword: { ...client, Username: phone },
      ConfirmForgotPassword: {
        ...client,
        Username: phone,
        ConfirmationCode: '123456',
        Password: 'another-password-1',
      },
      ChangePassword: {
        AccessToken,
        PreviousPassword: 'not-the-password',
        ProposedPassword: 'another-password-1',
      },
      GetUser: { AccessToken },
      UpdateUserAttributes: { AccessToken, UserAttributes: [{ Name: 'nickname', Value: 'Dee' }] },
      DeleteUserAttributes: { AccessToken, UserAttributeNames: ['nickname'] },
      GetUserAttributeVerificationCode: { AccessToken, AttributeName: 'nickname' },
      VerifyUserAttribute: { AccessToken, AttributeName: 'nickname', Code: '123456' },
      SetUserMFAPreference: { AccessToken, SMSMfaSettings: { Enabled: false } },
      SetUserSettings: {
        AccessToken,
        MFAOptions: [{ DeliveryMedium: 'SMS', AttributeName: 'phone_number' }],
      },
      DeleteUser: { AccessToken: 'not-a-token' },
      GlobalSignOut: { AccessToken: 'not-a-token' },
      RevokeToken: { ...client, Token: 'not-a-token' },
    };
  }

  /** Every string in `value`, as its path and the body with that string replaced. */
  function* withEachString(
    value: unknown,
    replace: (text: string) => string,
    path: (string | number)[] = [],
  ): Generator<{ path: string; body: unknown }> {
    if (typeof value === 'string') {
      yield { path: path.join('.'), body: replace(value) };
    } else if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) {
        for (const inner of withEachString(item, replace, [...path, i])) {
          yield { path: inner.path, body: value.map((v, j) => (j === i ? inner.body : v)) };
        }
      }
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        for (const inner of withEachString(item, replace, [...path, key])) {
          yield { path: inner.path, body: { ...value, [key]: inner.body } };
        }
      }
    }
  }

  it('answers a NUL or an unpaired surrogate in any field, USERNAME and attribute values included, with InvalidParameterException naming it', async () => {
    const bodies = await plausibleBodies();
    const failures: string[] = [];
    let tried = 0;
    for (const [operation, body] of Object.entries(bodies)) {
      for (const [what, replace] of [
        ['a NUL', (text: string) => `${text.slice(0, 3)}\u0000${text.slice(3)}`],
        ['a lone surrogate', (text: string) => `${text}\ud800`],
      ] as const) {
        for (const attempt of withEachString(body, replace)) {
          tried++;
          const answer = await cognitoCall(h.url, operation, attempt.body);
          const message = String(answer.body.message);
          if (
            answer.status !== 400 ||
            answer.errorType !== 'InvalidParameterException' ||
            !message.includes(attempt.path)
          ) {
            failures.push(
              `${operation} with ${what} in ${attempt.path}: ${answer.status} ${answer.errorType} ${message.slice(0, 100)}`,
            );
          }
        }
      }
    }
    // In a name, too: the answer names the object that holds it.
    const key = await cognitoCall(h.url, 'InitiateAuth', {
      ...bodies.InitiateAuth,
      AuthParameters: { 'USER\u0000NAME': '+14155550100' },
    });
    if (
      key.errorType !== 'InvalidParameterException' ||
      !String(key.body.message).includes('AuthParameters')
    ) {
      failures.push(`InitiateAuth with a NUL in a name: ${key.status} ${key.errorType}`);
    }
    expect(tried).toBeGreaterThan(60);
    expect(failures).toEqual([]);
  });

  it('never repeats more than 200 characters of a 100,000-character input, in any field, name or header', async () => {
    const bodies = await plausibleBodies();
    const failures: string[] = [];
    const check = (where: string, answer: Awaited<ReturnType<typeof cognitoCall>>) => {
      const text = JSON.stringify(answer.body);
      if (answer.status >= 500) failures.push(`${where}: ${answer.status} ${text.slice(0, 100)}`);
      if (text.includes(ECHOED)) failures.push(`${where}: repeats ${text.length} characters`);
    };
    for (const [operation, body] of Object.entries(bodies)) {
      for (const attempt of withEachString(body, () => LONG)) {
        const answer = await cognitoCall(h.url, operation, attempt.body);
        check(`${operation} with ${attempt.path}`, answer);
        if (
          answer.errorType !== 'InvalidParameterException' ||
          !String(answer.body.message).includes(attempt.path)
        ) {
          failures.push(`${operation} with ${attempt.path}: ${answer.errorType}, not naming it`);
        }
      }
    }
    check(
      'a 100,000-character AuthParameters name',
      await cognitoCall(h.url, 'InitiateAuth', {
        ...bodies.InitiateAuth,
        AuthParameters: { [LONG]: 'x' },
      }),
    );
    check(
      'a long X-Amz-Target',
      await cognitoCall(h.url, `InitiateAuth${'x'.repeat(8_000)}`, bodies.InitiateAuth),
    );
    check(
      'a long content type',
      await cognitoCall(h.url, 'InitiateAuth', bodies.InitiateAuth, {
        'content-type': `application/${'x'.repeat(8_000)}`,
      }),
    );
    expect(failures).toEqual([]);
  });
});
