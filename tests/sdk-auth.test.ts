// The SDK's sign-in against the real sandbox gateway: sign-up to confirmed sign-in, SRP and
// password flows, challenges, refresh on expiry, single-flight refresh, revoked sessions, and the
// CLI's session file.
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AuthError,
  createAuth,
  createGatewayClient,
  createMemorySessionStore,
  UnauthenticatedError,
} from '@blockcatch/sdk';
import { createFileSessionStore } from '@blockcatch/sdk/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  adminClient,
  authOptions,
  createAdmin,
  type FaultProxy,
  latestCode,
  type Sandbox,
  startFaultProxy,
  startSandbox,
} from './sdk-harness.js';

const TWO_HOURS = 2 * 3_600_000;
let sandbox: Sandbox;
let proxy: FaultProxy;
let admin: Awaited<ReturnType<typeof adminClient>>;
let phoneSeq = 0;
const nextPhone = () => `+1305556${String(1000 + phoneSeq++).padStart(4, '0')}`;

/** A confirmed account with a users row, so the API knows it. */
async function confirmedPerson(options: { temporaryPassword?: boolean; smsMfa?: boolean } = {}) {
  const phone = nextPhone();
  const password = 'Driver-pass-1';
  await sandbox.gateway.db.query(
    `INSERT INTO users (id, product, phone_number, name, create_date_ts)
     VALUES (gen_random_uuid()::text, 'flex', $1, 'Dora Driver', $2)`,
    [phone, Date.now()],
  );
  await sandbox.gateway.identity.ensureAccount({
    phoneNumber: phone,
    password,
    name: 'Dora Driver',
    ...options,
  });
  return { phone, password };
}

beforeAll(async () => {
  sandbox = await startSandbox();
  await createAdmin(sandbox.gateway);
  admin = await adminClient(sandbox);
  proxy = await startFaultProxy(sandbox.url);
}, 60_000);

afterAll(async () => {
  admin?.auth.dispose();
  await proxy?.close();
  await sandbox?.close();
});

describe('sign-up and sign-in', () => {
  it('records the referral code of an invitation link with the new user, and refuses one that cannot be a code', async () => {
    const auth = createAuth(authOptions(sandbox.gateway, sandbox.url));
    const phone = nextPhone();
    await auth.signUp(phone, 'Newbie-pass-1', 'Rafa Referred', ' 7kq2xw ');
    const [user] = await sandbox.gateway.db.query<{ referral: string | null }>(
      "SELECT referral FROM users WHERE product = 'flex' AND phone_number = $1",
      [phone],
    );
    expect(user?.referral).toBe('7KQ2XW');

    const other = nextPhone();
    await expect(auth.signUp(other, 'Newbie-pass-1', 'Rafa Typo', '7KQ2X0')).rejects.toMatchObject({
      identityCode: 'InvalidParameterException',
      message: expect.stringContaining('custom:referral'),
    });
    const rows = await sandbox.gateway.db.query('SELECT 1 FROM users WHERE phone_number = $1', [
      other,
    ]);
    expect(rows).toEqual([]);
  });

  it('signs up, reads the code from the outbox, confirms, and signs in with SRP', async () => {
    const auth = createAuth(authOptions(sandbox.gateway, sandbox.url));
    const phone = nextPhone();
    const signUp = await auth.signUp(
      `(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`,
      'Newbie-pass-1',
      'Nina New',
    );
    expect(signUp).toMatchObject({ username: phone, userConfirmed: false });

    await expect(auth.signIn(phone, 'Newbie-pass-1')).rejects.toMatchObject({
      identityCode: 'UserNotConfirmedException',
    });
    await auth.confirmSignUp(await latestCode(admin.client, phone));

    const result = await auth.signIn(phone, 'Newbie-pass-1');
    expect(result.status).toBe('signedIn');
    const session = await auth.currentSession();
    expect(session).toMatchObject({
      phoneNumber: phone,
      phoneNumberVerified: true,
      name: 'Nina New',
    });
    expect(await auth.getUser()).toMatchObject({ attributes: { name: 'Nina New' } });
    auth.dispose();
  }, 30_000);

  it('resends the sign-up code on request, and the new code confirms', async () => {
    const auth = createAuth(authOptions(sandbox.gateway, sandbox.url));
    const phone = nextPhone();
    await auth.signUp(phone, 'Newbie-pass-1', 'Rita Resend');
    const first = await latestCode(admin.client, phone);
    await auth.resendCode();
    const second = await latestCode(admin.client, phone);
    await expect(
      auth.confirmSignUp('000000' === second ? '111111' : '000000'),
    ).rejects.toBeInstanceOf(AuthError);
    await auth.confirmSignUp(second);
    expect(first).toMatch(/^\d{6}$/);
    auth.dispose();
  }, 30_000);

  it('signs in with the password flow (USER_PASSWORD_AUTH) as well as SRP', async () => {
    const person = await confirmedPerson();
    const auth = createAuth(authOptions(sandbox.gateway, sandbox.url));
    const result = await auth.signIn(person.phone, person.password, { flow: 'password' });
    expect(result.status).toBe('signedIn');
    const client = createGatewayClient({ baseUrl: sandbox.url, auth });
    expect((await client.me()).phoneNumber).toBe(person.phone);
    auth.dispose();
  }, 30_000);

  it("rejects a wrong password with the identity service's code and message", async () => {
    const auth = createAuth(authOptions(sandbox.gateway, sandbox.url));
    for (const flow of ['srp', 'password'] as const) {
      const error = await auth.signIn(ADMIN.phone, 'Wrong-pass-1', { flow }).catch((e) => e);
      expect(error).toBeInstanceOf(AuthError);
      expect(error.identityCode).toBe('NotAuthorizedException');
      expect(error.message).toBeTruthy();
    }
    const empty = await auth.signIn(ADMIN.phone, '', { flow: 'password' }).catch((e) => e);
    expect(empty.message).toBe('PASSWORD parameter is required');
  }, 30_000);

  it("answers the new-password challenge, refusing an empty one with 'New password is required.'", async () => {
    const person = await confirmedPerson({ temporaryPassword: true });
    const auth = createAuth(authOptions(sandbox.gateway, sandbox.url));
    const result = await auth.signIn(person.phone, person.password);
    if (result.status !== 'challenge' || result.challenge !== 'NEW_PASSWORD_REQUIRED') {
      throw new Error(`expected NEW_PASSWORD_REQUIRED, got ${result.status}`);
    }
    await expect(result.answer('')).rejects.toThrow('New password is required.');
    expect((await result.answer('Brand-new-pass-2')).status).toBe('signedIn');
    auth.signOut();
    expect((await auth.signIn(person.phone, 'Brand-new-pass-2')).status).toBe('signedIn');
    auth.dispose();
  }, 30_000);

  it('answers the SMS MFA challenge with the code texted to the phone', async () => {
    const person = await confirmedPerson({ smsMfa: true });
    const auth = createAuth(authOptions(sandbox.gateway, sandbox.url));
    const result = await auth.signIn(person.phone, person.password);
    if (result.status !== 'challenge' || result.challenge !== 'SMS_MFA') {
      throw new Error(`expected SMS_MFA, got ${result.status}`);
    }
    const done = await result.answer(await latestCode(admin.client, person.phone));
    expect(done.status).toBe('signedIn');
    auth.dispose();
  }, 30_000);

  it('resets a forgotten password with the texted code, and changes it when signed in', async () => {
    const person = await confirmedPerson();
    const auth = createAuth(authOptions(sandbox.gateway, sandbox.url));
    await auth.forgotPassword(person.phone);
    await auth.confirmForgotPassword(
      person.phone,
      await latestCode(admin.client, person.phone),
      'Reset-pass-3',
    );
    await auth.signIn(person.phone, 'Reset-pass-3');
    await auth.changePassword('Reset-pass-3', 'Changed-pass-4');
    await auth.updateAttributes({ name: 'Dora Renamed' });
    expect((await auth.getUser()).attributes.name).toBe('Dora Renamed');
    await auth.signOut();
    await expect(auth.signIn(person.phone, 'Reset-pass-3')).rejects.toBeInstanceOf(AuthError);
    expect((await auth.signIn(person.phone, 'Changed-pass-4')).status).toBe('signedIn');
    await auth.deleteUser();
    await expect(auth.currentSession()).rejects.toThrow(
      'Local storage is missing an ID Token, Please authenticate',
    );
    auth.dispose();
  }, 30_000);

  it("says 'User is not authenticated' for account operations without a session", async () => {
    const auth = createAuth(authOptions(sandbox.gateway, sandbox.url));
    await expect(auth.changePassword('a', 'b')).rejects.toThrow('User is not authenticated');
    await expect(auth.signOut({ global: true })).rejects.toThrow('User is not authenticated');
    expect(await auth.getIdToken()).toBeNull();
  });
});

describe('keeping the session fresh', () => {
  async function signedInThroughProxy(store = createMemorySessionStore()) {
    const person = await confirmedPerson();
    let clock = Date.now();
    const warnings: Array<{ message: string; details: unknown }> = [];
    const auth = createAuth({
      ...authOptions(sandbox.gateway, proxy.url),
      storage: store,
      now: () => clock,
      logger: { warn: (message, details) => warnings.push({ message, details }) },
    });
    await auth.signIn(person.phone, person.password);
    return {
      auth,
      person,
      warnings,
      setClock: (ms: number) => {
        clock = ms;
      },
    };
  }

  it('refreshes an expired id token before the request, and the request succeeds', async () => {
    const { auth, setClock } = await signedInThroughProxy();
    const before = await auth.getIdToken();
    const refreshesBefore = proxy.refreshCalls();
    setClock(Date.now() + TWO_HOURS);
    const client = createGatewayClient({ baseUrl: sandbox.url, auth });
    await client.me();
    expect(proxy.refreshCalls()).toBe(refreshesBefore + 1);
    setClock(Date.now());
    const after = await auth.getIdToken();
    expect(after).not.toBe(before);
    auth.dispose();
  }, 30_000);

  it('makes exactly one REFRESH_TOKEN_AUTH call for 100 concurrent requests with an expired token', async () => {
    const { auth, setClock } = await signedInThroughProxy();
    const client = createGatewayClient({ baseUrl: sandbox.url, auth });
    const refreshesBefore = proxy.refreshCalls();
    setClock(Date.now() + TWO_HOURS);
    const users = await Promise.all(Array.from({ length: 100 }, () => client.me()));
    expect(users).toHaveLength(100);
    expect(proxy.refreshCalls()).toBe(refreshesBefore + 1);
    auth.dispose();
  }, 30_000);

  it('clears the stored session when the refresh token was revoked, and the 401 asks to sign in again', async () => {
    const store = createMemorySessionStore();
    const { auth, person, setClock } = await signedInThroughProxy(store);
    const token = await auth.getIdToken();
    // Signing out everywhere from another device revokes this session's refresh token too.
    const elsewhere = createAuth(authOptions(sandbox.gateway, sandbox.url));
    await elsewhere.signIn(person.phone, person.password);
    await elsewhere.signOut({ global: true });

    setClock(Date.now() + TWO_HOURS);
    expect(await auth.getIdToken()).toBeNull();
    await expect(auth.currentSession()).rejects.toThrow(
      'Local storage is missing an ID Token, Please authenticate',
    );
    expect(
      store.getItem(
        `CognitoIdentityServiceProvider.${sandbox.gateway.config.clientId}.LastAuthUser`,
      ),
    ).toBeNull();

    // A client still holding the revoked token gets the sign-in-again error.
    const stale = createGatewayClient({
      baseUrl: sandbox.url,
      auth: { getIdToken: async () => token },
    });
    const error = await stale.me().catch((e) => e);
    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(error.message).toMatch(/sign in again/);
    auth.dispose();
  }, 30_000);

  it('logs any other refresh failure without the tokens, and the request goes on', async () => {
    const { auth, setClock, warnings } = await signedInThroughProxy();
    const token = (await auth.getIdToken())!;
    const refreshToken = (await auth.currentSession()).refreshToken!;
    proxy.plan = (req) =>
      req.body.includes('REFRESH_TOKEN_AUTH')
        ? {
            kind: 'status',
            status: 500,
            body: JSON.stringify({ __type: 'InternalErrorException', message: 'boom' }),
          }
        : { kind: 'forward' };
    try {
      setClock(Date.now() + TWO_HOURS);
      const client = createGatewayClient({ baseUrl: sandbox.url, auth });
      // The token is still good to the gateway's real clock, so the request succeeds with it.
      expect((await client.me()).name).toBe('Dora Driver');
      expect(await auth.getIdToken()).toBe(token);
    } finally {
      proxy.plan = () => ({ kind: 'forward' });
    }
    expect(warnings.length).toBeGreaterThan(0);
    const logged = JSON.stringify(warnings);
    expect(logged).toMatch(/InternalErrorException/);
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(refreshToken);
    auth.dispose();
  }, 30_000);

  it("says 'Cannot retrieve a new session. Please authenticate.' when there is no refresh token", async () => {
    const store = createMemorySessionStore();
    const { auth, setClock } = await signedInThroughProxy(store);
    const user = store.getItem(
      `CognitoIdentityServiceProvider.${sandbox.gateway.config.clientId}.LastAuthUser`,
    );
    store.removeItem(
      `CognitoIdentityServiceProvider.${sandbox.gateway.config.clientId}.${user}.refreshToken`,
    );
    setClock(Date.now() + TWO_HOURS);
    await expect(auth.currentSession()).rejects.toThrow(
      'Cannot retrieve a new session. Please authenticate.',
    );
    auth.dispose();
  }, 30_000);
});

describe('the CLI session file', () => {
  it('keeps the session in a 0600 file that a new process signs in from, and refuses it once others can read it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bc-sdk-auth-'));
    try {
      const person = await confirmedPerson();
      const first = createAuth({
        ...authOptions(sandbox.gateway, sandbox.url),
        storage: createFileSessionStore({ dir, profile: 'sandbox' }),
      });
      await first.signIn(person.phone, person.password);
      first.dispose();
      const path = join(dir, 'sandbox.json');
      expect(statSync(path).mode & 0o777).toBe(0o600);

      const second = createAuth({
        ...authOptions(sandbox.gateway, sandbox.url),
        storage: createFileSessionStore({ dir, profile: 'sandbox' }),
      });
      const client = createGatewayClient({ baseUrl: sandbox.url, auth: second });
      expect((await client.me()).phoneNumber).toBe(person.phone);
      second.dispose();

      chmodSync(path, 0o640);
      expect(() => createFileSessionStore({ dir, profile: 'sandbox' })).toThrow(
        `chmod 600 ${path}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
