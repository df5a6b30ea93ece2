// What the gateway logs at its most verbose level, captured while a user signs up with a texted code,
// signs in with a password, resets it with a second texted code, calls the API with every token and
// pays with a sandbox card on the processor's page: none of the passwords, codes, tokens, salts, verifiers, token hashes or
// card numbers they used may appear in the log.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { buildGateway, type Gateway } from '../src/server.js';
import { payWithCard } from './helpers/checkout.js';
import { client, freshPhone } from './helpers/drivers.js';
import { cognitoCall } from './identity-harness.js';

const FIRST_PASSWORD = 'Hygiene-first-pass-71';
const SECOND_PASSWORD = 'Hygiene-second-pass-93';
const CARD_NUMBER = '4242 4242 4242 4242';

let gateway: Gateway;
let url: string;
const lines: string[] = [];

beforeAll(async () => {
  gateway = await buildGateway(
    {
      port: 0,
      logLevel: 'debug',
      seed: false,
      quietHours: false,
      // Every call comes from 127.0.0.1: the per-address limits are lifted.
      identityLimits: {
        codesPerIpPerHour: 100_000,
        passwordFailuresPerIpPerHour: 100_000,
        codesPerHour: 100_000,
      },
    },
    { logStream: { write: (line) => void lines.push(line) } },
  );
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const address = gateway.app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await gateway?.close();
});

async function textedCodes(phone: string): Promise<string[]> {
  const rows = await gateway.db.query<{ body: string }>(
    'SELECT body FROM outbox_messages WHERE to_number = $1 ORDER BY id',
    [phone],
  );
  return rows.flatMap((row) => row.body.match(/(\d{6})$/)?.[1] ?? []);
}

/** The next code texted to `phone` after the `seen` ones. */
function nextCode(phone: string, seen: number): Promise<string> {
  return eventually(async () => {
    const codes = await textedCodes(phone);
    expect(codes.length).toBeGreaterThan(seen);
    return codes[codes.length - 1]!;
  });
}

async function storedSecrets(accountId: string): Promise<string[]> {
  const [account] = await gateway.db.query<{ salt: string; verifier: string }>(
    'SELECT salt, verifier FROM identity_accounts WHERE id = $1',
    [accountId],
  );
  const sessions = await gateway.db.query<{ refresh_hash: string }>(
    'SELECT refresh_hash FROM identity_sessions',
  );
  return [account!.salt, account!.verifier, ...sessions.map((s) => s.refresh_hash)];
}

it('never writes a password, code, token, salt, verifier or card number to the log', async () => {
  const clientId = gateway.config.clientId;
  const phone = freshPhone();
  const call = (operation: string, body: Record<string, unknown>, headers = {}) =>
    cognitoCall(`${url}/`, operation, body, headers);
  const secrets: Record<string, string> = {
    'first password': FIRST_PASSWORD,
    'second password': SECOND_PASSWORD,
    'card number': CARD_NUMBER,
    'card number without spaces': CARD_NUMBER.replaceAll(' ', ''),
  };

  const signUp = await call('SignUp', {
    ClientId: clientId,
    Username: phone,
    Password: FIRST_PASSWORD,
    UserAttributes: [{ Name: 'name', Value: 'Log Hygiene' }],
  });
  expect(signUp.status).toBe(200);
  const accountId = signUp.body.UserSub as string;
  secrets['sign-up code'] = await nextCode(phone, 0);
  const confirmed = await call('ConfirmSignUp', {
    ClientId: clientId,
    Username: phone,
    ConfirmationCode: secrets['sign-up code'],
  });
  expect(confirmed.status).toBe(200);

  const firstSignIn = await call('InitiateAuth', {
    ClientId: clientId,
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: phone, PASSWORD: FIRST_PASSWORD },
  });
  expect(firstSignIn.status).toBe(200);
  const first = firstSignIn.body.AuthenticationResult as Record<string, string>;
  Object.assign(secrets, {
    'first id token': first.IdToken!,
    'first access token': first.AccessToken!,
    'first refresh token': first.RefreshToken!,
  });
  const firstStored = await storedSecrets(accountId);

  const forgot = await call('ForgotPassword', { ClientId: clientId, Username: phone });
  expect(forgot.status).toBe(200);
  secrets['reset code'] = await nextCode(phone, 1);
  expect(secrets['reset code']).not.toBe(secrets['sign-up code']);
  const reset = await call('ConfirmForgotPassword', {
    ClientId: clientId,
    Username: phone,
    ConfirmationCode: secrets['reset code'],
    Password: SECOND_PASSWORD,
  });
  expect(reset.status).toBe(200);
  // A failure path too: the old password, refused.
  const refused = await call('InitiateAuth', {
    ClientId: clientId,
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: phone, PASSWORD: FIRST_PASSWORD },
  });
  expect(refused.errorType).toBe('NotAuthorizedException');

  const secondSignIn = await call('InitiateAuth', {
    ClientId: clientId,
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: phone, PASSWORD: SECOND_PASSWORD },
  });
  expect(secondSignIn.status).toBe(200);
  const second = secondSignIn.body.AuthenticationResult as Record<string, string>;
  Object.assign(secrets, {
    'second id token': second.IdToken!,
    'second access token': second.AccessToken!,
    'second refresh token': second.RefreshToken!,
  });
  const refreshed = await call('InitiateAuth', {
    ClientId: clientId,
    AuthFlow: 'REFRESH_TOKEN_AUTH',
    AuthParameters: { REFRESH_TOKEN: second.RefreshToken },
  });
  expect(refreshed.status).toBe(200);
  secrets['refreshed id token'] = (refreshed.body.AuthenticationResult as Record<string, string>)
    .IdToken!;
  expect((await call('GetUser', { AccessToken: second.AccessToken })).status).toBe(200);

  const api = client(url, second.IdToken!);
  const me = await api('GET', '/api/flex/v1/user');
  expect(me.status).toBe(200);
  expect(me.body.Item).toMatchObject({ name: 'Log Hygiene' });
  // The card is typed on the sandbox processor's page: it passes through this process too.
  const opened = await api(
    'POST',
    '/api/flex/v1/checkout',
    { mode: 'payment', weeks: 1 },
    { 'idempotency-key': randomUUID() },
  );
  expect(opened.status).toBe(201);
  const paid = await payWithCard(url, opened.body.Item.url, CARD_NUMBER);
  expect(paid.status).toBe(303);

  const stored = [...firstStored, ...(await storedSecrets(accountId))];
  stored.forEach((value, index) => {
    secrets[`stored salt, verifier or token hash #${index}`] = value;
  });

  // The log saw the whole flow (a request per call at least), so an empty capture cannot pass.
  const log = lines.join('');
  expect(lines.length).toBeGreaterThanOrEqual(12);
  expect(log).toContain('/api/flex/v1/checkout');
  expect(log).toContain('/sandbox/checkout/');
  const leaked = Object.entries(secrets)
    .filter(([, value]) => value && log.includes(value))
    .map(([name]) => name);
  expect(leaked).toEqual([]);
});
