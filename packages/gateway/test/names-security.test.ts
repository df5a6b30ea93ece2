// Names with a link or a control character, sent as an attacker would through the identity
// endpoint of a running gateway: at sign-up and in a profile edit. Each is refused with
// InvalidParameterException naming the attribute, and nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByPhone } from '../src/storage/users.js';
import { addDriver, freshPhone } from './helpers/drivers.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { cognitoCall } from './identity-harness.js';

const PASSWORD = 'Driver-pass-123';
const HOSTILE = [
  ['a web address', 'Claim $500 http://evil.example/x', /^name: must not contain a web address/],
  ['a domain', 'Rosa evil.example', /^name: must not contain a web address/],
  ['an email', 'rosa@evil.example', /^name: must not contain a web address or an email/],
  ['a line break', 'Rosa\nClaim your prize', /^name: must not contain control characters/],
  // The body's own check refuses a NUL anywhere before the name rule reads it, naming the value.
  ['a NUL', 'Rosa\u0000', /^UserAttributes\.0\.Value: contains a NUL character/],
  ['a direction override', 'Rosa \u202Eexe.elif', /^name: must not contain control characters/],
] as const;

let api: RunningGateway;

beforeAll(async () => {
  api = await startGateway();
});
afterAll(async () => {
  await api?.gateway.close();
});

const op = (operation: string, body: Record<string, unknown>) =>
  cognitoCall(api.url, operation, { ClientId: api.gateway.config.clientId, ...body });

describe('sign-up', () => {
  it.each(HOSTILE)('refuses a name with %s, naming the field', async (_what, name, message) => {
    const phone = freshPhone();
    const res = await op('SignUp', {
      Username: phone,
      Password: PASSWORD,
      UserAttributes: [{ Name: 'name', Value: name }],
    });
    expect(res.status).toBe(400);
    expect(res.errorType).toBe('InvalidParameterException');
    expect(res.body.message).toMatch(message);
    expect(await findUserByPhone(api.gateway.db, 'flex', phone)).toBeNull();
  });

  it('accepts an ordinary name', async () => {
    const phone = freshPhone();
    const res = await op('SignUp', {
      Username: phone,
      Password: PASSWORD,
      UserAttributes: [{ Name: 'name', Value: "Rosa María D'Angelo-Díaz" }],
    });
    expect(res.status).toBe(200);
    expect((await findUserByPhone(api.gateway.db, 'flex', phone))?.name).toBe(
      "Rosa María D'Angelo-Díaz",
    );
  });
});

describe('profile edits', () => {
  it.each(HOSTILE)(
    'refuses a new name with %s and keeps the old one',
    async (_what, name, message) => {
      const driver = await addDriver(api, { name: 'Rosa Diaz' });
      const signedIn = await op('InitiateAuth', {
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: driver.phone, PASSWORD: PASSWORD },
      });
      const token = (signedIn.body.AuthenticationResult as { AccessToken: string }).AccessToken;
      const res = await op('UpdateUserAttributes', {
        AccessToken: token,
        UserAttributes: [{ Name: 'name', Value: name }],
      });
      expect(res.status).toBe(400);
      expect(res.errorType).toBe('InvalidParameterException');
      expect(res.body.message).toMatch(message);
      expect((await findUserByPhone(api.gateway.db, 'flex', driver.phone))?.name).toBe('Rosa Diaz');
    },
  );
});
