// Two gateway processes on one PostgreSQL database: a table one of them has cached is rebuilt as
// soon as the other writes, because the version lives in the database, not in either process; a
// caller one of them has verified is refused by it within the version interval (1 s) once the
// other signs them out or a permission is taken away.
import { flexUsersResponseSchema } from '@blockcatch/sdk';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { flexUserRow } from '../src/seed.js';
import { buildGateway, type Gateway } from '../src/server.js';
import { insertUsers } from '../src/storage/users.js';
import { POSTGRES_URL, uniqueSchema } from './helpers/database.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { ADMIN, flexUsers, OWNER, staff } from './helpers/people.js';

const databaseSchema = uniqueSchema();
let first: RunningGateway;
let second: Gateway;
let secondUrl: string;

beforeAll(async () => {
  const shared = { databaseUrl: POSTGRES_URL, databaseSchema };
  first = await startGateway(shared);
  second = await buildGateway({ port: 0, logLevel: 'silent', seed: false, ...shared });
  await second.app.listen({ host: '127.0.0.1', port: 0 });
  const address = second.app.server.address();
  secondUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await second?.close();
  await first?.gateway.db.query(`DROP SCHEMA "${databaseSchema}" CASCADE`);
  await first?.gateway.close();
});

async function flexNames(url: string): Promise<string[]> {
  // The token the first process issued is valid on the second: they share the pool's key.
  const response = await request(`${url}/api/flex/v1/all-users-table`, {
    headers: first.as(ADMIN),
  });
  expect(response.statusCode).toBe(200);
  return flexUsersResponseSchema.parse(await response.body.json()).Items.map((u) => u.name);
}

it('serves a user written through another process on the next request', async () => {
  const before = await flexNames(first.url);
  expect(await flexNames(secondUrl)).toEqual(before);
  await insertUsers(second.db, [
    flexUserRow({
      ...flexUsers[1]!,
      phoneNumber: '+17135550999',
      name: 'Otro Proceso',
      referralCode: null,
    }),
  ]);
  expect(await flexNames(first.url)).toContain('Otro Proceso');
  await first.gateway.db.query(
    `UPDATE users SET name = 'Renamed' WHERE phone_number = '+17135550999'`,
  );
  const names = await flexNames(secondUrl);
  expect(names).toContain('Renamed');
  expect(names).not.toContain('Otro Proceso');
});

async function statusOf(url: string, path: string, authorization: string): Promise<number> {
  const response = await request(`${url}${path}`, { headers: { authorization } });
  await response.body.dump();
  return response.statusCode;
}

it("refuses an admin route once another process took its caller's admin flag away", async () => {
  const token = first.as(OWNER).authorization;
  expect(await statusOf(secondUrl, '/api/flex/v1/all-users-table', token)).toBe(200);
  await first.gateway.db.query(`UPDATE users SET is_admin = false WHERE phone_number = $1`, [
    OWNER,
  ]);
  try {
    await eventually(async () =>
      expect(await statusOf(secondUrl, '/api/flex/v1/all-users-table', token)).toBe(403),
    );
  } finally {
    await first.gateway.db.query(`UPDATE users SET is_admin = true WHERE phone_number = $1`, [
      OWNER,
    ]);
  }
});

it('refuses a token it has served once its user signed out through another process', async () => {
  const owner = staff.find((member) => member.phoneNumber === OWNER)!;
  const cognito = async (target: string, body: unknown) => {
    const response = await request(`${first.url}/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': `AWSCognitoIdentityProviderService.${target}`,
      },
      body: JSON.stringify(body),
    });
    expect(response.statusCode).toBe(200);
    return (await response.body.json()) as {
      AuthenticationResult?: { IdToken: string; AccessToken: string };
    };
  };
  const { AuthenticationResult } = await cognito('InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    ClientId: first.gateway.config.clientId,
    AuthParameters: { USERNAME: owner.phoneNumber, PASSWORD: owner.password },
  });
  const { IdToken, AccessToken } = AuthenticationResult!;
  expect(await statusOf(secondUrl, '/api/flex/v1/user', IdToken)).toBe(200);
  expect(await statusOf(secondUrl, '/api/flex/v1/user', IdToken)).toBe(200);
  await cognito('GlobalSignOut', { AccessToken });
  await eventually(async () =>
    expect(await statusOf(secondUrl, '/api/flex/v1/user', IdToken)).toBe(401),
  );
});
