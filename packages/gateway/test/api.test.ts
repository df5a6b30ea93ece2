// The read API over HTTP: shapes checked with the SDK's schemas, every
// permission rule, encryption, caching and CORS.
import { gunzipSync } from 'node:zlib';
import {
  currentUserResponseSchema,
  decryptResponse,
  flexUsersResponseSchema,
  invitationsResponseSchema,
  parseResponseKey,
  referralsResponseSchema,
  sparkUsersResponseSchema,
} from '@blockcatch/sdk';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { flexUserRow } from '../src/seed.js';
import { buildGateway } from '../src/server.js';
import { insertUsers } from '../src/storage/users.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import {
  ADMIN,
  DRIVER,
  flexUsers,
  invitations,
  OWNER,
  sparkUsers,
  staff,
} from './helpers/people.js';
import { signIn } from './helpers/sign-in.js';

const errorSchema = z.strictObject({ code: z.string().min(1), message: z.string().min(1) });
const RESPONSE_KEY = 'q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=';

const ADMIN_ROUTES = [
  '/api/flex/v1/all-users-table',
  '/api/spark/v1/admin/all-users-table',
  '/api/flex/v1/admin/referrals',
  '/api/flex/v1/admin/invitations',
];

let api: RunningGateway;

async function get(server: RunningGateway, path: string, headers: Record<string, string> = {}) {
  const response = await request(`${server.url}${path}`, { headers });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, text };
}

const json = (text: string): unknown => JSON.parse(text);

beforeAll(async () => {
  api = await startGateway();
});

afterAll(async () => {
  await api?.gateway.close();
});

describe('health', () => {
  it('answers ok without a session, with the version and CDN ids in exposed headers', async () => {
    const res = await get(api, '/api/status/health');
    expect(res.status).toBe(200);
    expect(json(res.text)).toEqual({ status: 'ok' });
    expect(res.headers['x-amz-version-id']).toBe('sandbox-1');
    expect(res.headers['x-amz-cf-id']).toBe('sandbox-cdn');
    expect(String(res.headers['access-control-expose-headers'])).toContain('x-amz-version-id');
    expect(String(res.headers['access-control-expose-headers'])).toContain('x-amz-cf-id');
  });
});

describe('the signed-in user', () => {
  it('is answered as Item for any signed-in user, with role and permissions', async () => {
    for (const member of staff) {
      const res = await get(api, '/api/flex/v1/user', api.as(member.phoneNumber));
      expect(res.status).toBe(200);
      const user = currentUserResponseSchema.parse(json(res.text));
      expect(user).toEqual({
        name: member.name,
        phoneNumber: member.phoneNumber,
        isAdmin: member.isAdmin,
        proxyInstalled: member.proxyInstalled,
        setupComplete: member.setupComplete,
        goodStanding: member.goodStanding,
        role: member.role,
        expirationDateTimestamp: expect.any(Number),
        reseller: false,
      });
      // Staff keep at least four weeks of service from seeding, or the fixture's later date.
      expect(user.expirationDateTimestamp).toBeGreaterThanOrEqual(
        Math.max(member.expirationDateTimestamp ?? 0, Date.now() + 27 * 24 * 3_600_000),
      );
    }
  });
});

describe('the reseller flag', () => {
  it('tells a driver with a payout account that the reseller view is theirs, and it answers', async () => {
    const driver = await startGateway();
    try {
      await driver.gateway.db.query(
        "UPDATE users SET stripe_express_id = 'acct_reseller_test' WHERE phone_number = $1",
        [DRIVER],
      );
      const auth = driver.as(DRIVER);
      const user = currentUserResponseSchema.parse(
        json((await get(driver, '/api/flex/v1/user', auth)).text),
      );
      expect(user.reseller).toBe(true);
      expect((await get(driver, '/api/flex/v1/reseller', auth)).status).toBe(200);
    } finally {
      await driver.gateway.close();
    }
  });
});

describe('the admin tables', () => {
  it('lists every Flex user with the fields the admin table shows', async () => {
    const res = await get(api, '/api/flex/v1/all-users-table', api.as(ADMIN));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const { Items } = flexUsersResponseSchema.parse(json(res.text));
    expect(Items).toHaveLength(flexUsers.length + staff.length);
    const byPhone = new Map(Items.map((u) => [u.phoneNumber, u]));
    for (const user of flexUsers) {
      const { referralCode: _ownCode, ...shown } = user;
      expect(byPhone.get(user.phoneNumber)).toEqual(shown);
    }
  });

  it('lists every Spark user with their delivery area', async () => {
    const res = await get(api, '/api/spark/v1/admin/all-users-table', api.as(ADMIN));
    expect(res.status).toBe(200);
    const { Items } = sparkUsersResponseSchema.parse(json(res.text));
    expect(Items).toHaveLength(sparkUsers.length);
    const { referralCode: _ownCode, ...first } = sparkUsers[0]!;
    expect(Items).toContainEqual(first);
  });

  it('lists the invitations, oldest first', async () => {
    const res = await get(api, '/api/flex/v1/admin/invitations', api.as(ADMIN));
    expect(res.status).toBe(200);
    const { Items } = invitationsResponseSchema.parse(json(res.text));
    expect(Items).toEqual(invitations);
  });

  it('lists each referral code once to an admin with billing details', async () => {
    const res = await get(api, '/api/flex/v1/admin/referrals', api.as(OWNER));
    expect(res.status).toBe(200);
    const { Items } = referralsResponseSchema.parse(json(res.text));
    const codes = Items.map((r) => r.referralCode);
    expect(new Set(codes).size).toBe(codes.length);
    const owned = [...flexUsers, ...sparkUsers].flatMap((u) =>
      u.referralCode ? [u.referralCode] : [],
    );
    expect(owned.length).toBeGreaterThan(0);
    for (const code of owned) expect(codes).toContain(code);
  });

  it('shows a user added after the first answer on the next request', async () => {
    const before = flexUsersResponseSchema.parse(
      json((await get(api, '/api/flex/v1/all-users-table', api.as(ADMIN))).text),
    );
    const newcomer = { ...flexUsers[0]!, phoneNumber: '+13055550999', name: 'Nueva Persona' };
    await insertUsers(api.gateway.db, [flexUserRow({ ...newcomer, referralCode: null })]);
    const after = flexUsersResponseSchema.parse(
      json((await get(api, '/api/flex/v1/all-users-table', api.as(ADMIN))).text),
    );
    expect(after.Items).toHaveLength(before.Items.length + 1);
    expect(after.Items.map((u) => u.name)).toContain('Nueva Persona');
  });

  it('sends the same table gzip-compressed to a client that accepts gzip', async () => {
    const plain = await get(api, '/api/flex/v1/all-users-table', api.as(ADMIN));
    const response = await request(`${api.url}/api/flex/v1/all-users-table`, {
      headers: { ...api.as(ADMIN), 'accept-encoding': 'gzip' },
    });
    expect(response.headers['content-encoding']).toBe('gzip');
    const body = Buffer.from(await response.body.arrayBuffer());
    expect(gunzipSync(body).toString('utf8')).toBe(plain.text);
    // The plain answer is sent from its pieces with its whole length declared up front.
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(plain.text));
  });

  it('answers 304 Not Modified to a client holding the current ETag', async () => {
    const first = await get(api, '/api/flex/v1/all-users-table', api.as(ADMIN));
    const etag = String(first.headers.etag);
    const again = await get(api, '/api/flex/v1/all-users-table', {
      ...api.as(ADMIN),
      'if-none-match': etag,
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });
});

describe('permissions', () => {
  it('refuses every route but health to an anonymous caller with 401', async () => {
    for (const path of ['/api/flex/v1/user', ...ADMIN_ROUTES]) {
      const res = await get(api, path);
      expect(res.status, path).toBe(401);
      expect(errorSchema.parse(json(res.text)).code).toBe('unauthenticated');
    }
  });

  it('refuses a signed-in account that has no user row with 401', async () => {
    await api.gateway.identity.ensureAccount({
      phoneNumber: '+19995550100',
      password: 'Nobody-pass-2026',
      name: 'Nobody',
    });
    const token = await signIn(
      api.url,
      api.gateway.config.clientId,
      '+19995550100',
      'Nobody-pass-2026',
    );
    const res = await get(api, '/api/flex/v1/user', { authorization: token });
    expect(res.status).toBe(401);
  });

  it('refuses every admin route to a driver with 403', async () => {
    for (const path of ADMIN_ROUTES) {
      const res = await get(api, path, api.as(DRIVER));
      expect(res.status, path).toBe(403);
      expect(errorSchema.parse(json(res.text)).code).toBe('forbidden');
    }
  });

  it('refuses referrals to an admin without billing details with 403', async () => {
    const res = await get(api, '/api/flex/v1/admin/referrals', api.as(ADMIN));
    expect(res.status).toBe(403);
    expect(errorSchema.parse(json(res.text)).message).toMatch(/billing-details/);
  });

  it('answers an unknown API path with the JSON 404', async () => {
    const res = await get(api, '/api/flex/v1/nothing-here', api.as(ADMIN));
    expect(res.status).toBe(404);
    expect(errorSchema.parse(json(res.text)).code).toBe('not_found');
  });
});

describe('encrypted user tables', () => {
  let encrypted: RunningGateway;
  beforeAll(async () => {
    encrypted = await startGateway({ responseKey: RESPONSE_KEY });
  });
  afterAll(() => encrypted?.gateway.close());

  async function encryptedPayload(path: string): Promise<string> {
    const res = await get(encrypted, path, encrypted.as(ADMIN));
    expect(res.status).toBe(200);
    const body = z.strictObject({ encrypted: z.string().min(1) }).parse(json(res.text));
    return decryptResponse(body.encrypted, parseResponseKey(RESPONSE_KEY));
  }

  it('answers the Flex table as { encrypted } that decrypts to every Flex user', async () => {
    const payload = await encryptedPayload('/api/flex/v1/all-users-table');
    const { Items } = flexUsersResponseSchema.parse(JSON.parse(payload));
    expect(Items).toHaveLength(flexUsers.length + staff.length);
    const { referralCode: _ownCode, ...first } = flexUsers[0]!;
    expect(Items).toContainEqual(first);
  });

  it('answers the Spark table as { encrypted } that decrypts to every Spark user', async () => {
    const payload = await encryptedPayload('/api/spark/v1/admin/all-users-table');
    const { Items } = sparkUsersResponseSchema.parse(JSON.parse(payload));
    expect(Items).toHaveLength(sparkUsers.length);
  });

  it('leaves invitations and referrals in plain JSON', async () => {
    const res = await get(encrypted, '/api/flex/v1/admin/invitations', encrypted.as(ADMIN));
    expect(invitationsResponseSchema.parse(json(res.text)).Items).toHaveLength(invitations.length);
  });

  it('refuses to start with a key that is not 32 bytes', async () => {
    await expect(
      buildGateway({ port: 0, logLevel: 'silent', seed: false, responseKey: 'c2hvcnQ=' }),
    ).rejects.toThrow(/32 bytes/);
  });
});

describe('CORS', () => {
  it('lets the web dev server read answers and the exposed health headers', async () => {
    const res = await get(api, '/api/status/health', { origin: 'http://localhost:5173' });
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(String(res.headers['access-control-expose-headers'])).toContain('x-amz-cf-id');
  });

  it('answers a preflight from an allowed origin, with the Authorization header allowed', async () => {
    const response = await request(`${api.url}/api/flex/v1/all-users-table`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    await response.body.dump();
    expect(response.statusCode).toBe(204);
    expect(String(response.headers['access-control-allow-headers'])).toContain('authorization');
  });

  it('gives an unlisted origin no CORS headers', async () => {
    const res = await get(api, '/api/status/health', { origin: 'https://evil.example' });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
